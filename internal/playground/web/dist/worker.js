// The static site's engine: Musket's explicit engine compiled to
// WebAssembly (GOOS=js GOARCH=wasm), one run at a time; the page stops a
// run by terminating this worker.
importScripts("wasm_exec.js");
const go = new Go();
WebAssembly.instantiateStreaming(fetch("musket.wasm"), go.importObject).then(r => {
  go.run(r.instance);
  const wait = () => {
    if (self.musketRun) postMessage({ ready: true, info: JSON.parse(self.musketInfo()) });
    else setTimeout(wait, 5);
  };
  wait();
}).catch(e => postMessage({ error: String(e) }));
onmessage = ev => {
  if (ev.data.request) postMessage({ response: JSON.parse(self.musketRun(ev.data.request)) });
  if (ev.data.model) postMessage({ model: self.musketModel(ev.data.model) });
};
