package result

import (
	"reflect"
	"strconv"
	"testing"
)

// TestMerge: an AMO's read (2) and write (3) drawn as one event; the
// events after them are numbered again, the edges of either half are the
// merged event's, those between the halves are left out.
func TestMerge(t *testing.T) {
	x := &Execution{
		Events: []Event{{ID: 0, Thread: -1, Label: "a: W[x]=0"}, {ID: 1, Thread: 0, Label: "b: W[y]=1"},
			{ID: 2, Thread: 0, Label: "c: R[x]=0"}, {ID: 3, Thread: 0, Label: "d: W[x]=1"}, {ID: 4, Thread: 1, Label: "e: R[x]=1"}},
		Po: [][2]int{{1, 2}, {2, 3}},
		Rf: [][2]int{{0, 2}, {3, 4}},
		Co: [][2]int{{0, 3}},
		Fr: [][2]int{{2, 3}},
	}
	got, to := Merge(x, [][2]int{{2, 3}}, func(id, old int) string { return strconv.Itoa(id) + "<-" + strconv.Itoa(old) })
	want := &Execution{
		Events: []Event{{ID: 0, Thread: -1, Label: "0<-0"}, {ID: 1, Thread: 0, Label: "1<-1"},
			{ID: 2, Thread: 0, Label: "2<-2"}, {ID: 3, Thread: 1, Label: "3<-4"}},
		Po: [][2]int{{1, 2}},
		Rf: [][2]int{{0, 2}, {2, 3}},
		Co: [][2]int{{0, 2}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Merge:\n got %+v\nwant %+v", got, want)
	}
	if !reflect.DeepEqual(to, []int{0, 1, 2, 2, 3}) {
		t.Errorf("map %v", to)
	}
	steps := MapSteps([]Step{{From: 4, To: 3, Rel: "fr"}, {From: 2, To: 3, Rel: "rmw"}, {From: 3, To: 1, Rel: "x"}}, to)
	if want := []Step{{From: 3, To: 2, Rel: "fr"}, {From: 2, To: 1, Rel: "x"}}; !reflect.DeepEqual(steps, want) {
		t.Errorf("MapSteps: %v, want %v", steps, want)
	}
}
