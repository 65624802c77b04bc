// pthread-ext's array stack under a lock: push and pop on a fixed array
// with a top index, two pushers and a popper; pop of an empty stack
// returns -1 (EMPTY) and is tried twice. (BUG starts with one element,
// 0, on the stack.) Every
// pushed value is popped at most once; values are distinct. BUG: the
// overflow check is done before taking the lock (the check-then-act of
// the SV-COMP stack bug): two pushers both pass it with one slot left
// and the second writes past the array, which the program asserts
// against (FAIL under every model; a data race on top under C11).
#include <pthread.h>
#include <assert.h>

#define SIZE 2
#define EMPTY (-1)

static int stack[SIZE];
static int top;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int popped[3];

static int push(int v)
{
#ifdef BUG
	if (top == SIZE)
		return 0;
	pthread_mutex_lock(&m);
	assert(top < SIZE);
#else
	pthread_mutex_lock(&m);
	if (top == SIZE) {
		pthread_mutex_unlock(&m);
		return 0;
	}
#endif
	stack[top++] = v;
	pthread_mutex_unlock(&m);
	return 1;
}

static int pop(void)
{
	int v = EMPTY;
	pthread_mutex_lock(&m);
	if (top > 0)
		v = stack[--top];
	pthread_mutex_unlock(&m);
	return v;
}

static void *pusher(void *arg)
{
	int v = (int)(long)arg;
	push(v);
	return NULL;
}

static void *popper(void *arg)
{
	(void)arg;
	for (int k = 0; k < 2; k++) {
		int v = pop();
		if (v != EMPTY) {
			assert(v >= 0 && v <= 2 && popped[v] == 0);
			popped[v] = 1;
		}
	}
	return NULL;
}

int main(void)
{
	pthread_t a, b, c;
#ifdef BUG
	top = 1;
	stack[0] = 0;
#endif
	pthread_create(&a, NULL, pusher, (void *)1L);
	pthread_create(&b, NULL, pusher, (void *)2L);
	pthread_create(&c, NULL, popper, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_join(c, NULL);
	return 0;
}
