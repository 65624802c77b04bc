// The static site's engine: Musket's explicit engine compiled to
// WebAssembly (GOOS=js GOARCH=wasm), one run at a time; the page stops a
// run by terminating this worker.
importScripts("wasm_exec.js");
const go = new Go();
WebAssembly.instantiateStreaming(fetch("musket.wasm"), go.importObject).then(r => {
  go.run(r.instance);
  const wait = () => {
    if (self.musketRun) {
      postMessage({ ready: true, info: JSON.parse(self.musketInfo()) });
      warmUp();
    } else setTimeout(wait, 5);
  };
  wait();
}).catch(e => postMessage({ error: String(e) }));
// A few small runs while the page waits for the first one, each its own
// task so that a request goes in between: the browser optimises the
// WebAssembly code that has run for a while, and the first run of an
// architecture compiles its model (see warmTests in cmd/musket-wasm).
let warm = 8;
const warmUp = () => {
  if (warm-- > 0 && self.musketWarm) {
    self.musketWarm();
    setTimeout(warmUp, 0);
  }
};
onmessage = ev => {
  if (ev.data.request) postMessage({ response: JSON.parse(self.musketRun(ev.data.request)) });
  if (ev.data.model) postMessage({ model: self.musketModel(ev.data.model) });
};
