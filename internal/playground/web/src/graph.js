// Draws a candidate execution as SVG: one column per thread (initial
// writes on a row above), po down each column, rf/co/fr between events,
// and the edges of the failing check's cycle thick and red.
const NS = "http://www.w3.org/2000/svg";
const colors = { po: "#333", rf: "#c03030", co: "#2050c0", fr: "#c07000", cycle: "#c00000" };

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

export function drawExecution(x, cycle) {
  const evs = x.events || [];
  const byId = new Map();
  evs.forEach((e, i) => byId.set(i, e));
  const threads = [...new Set(evs.filter(e => e.thread >= 0).map(e => e.thread))].sort((a, b) => a - b);
  const W = 170, H = 30, GX = 220, GY = 78, top = 30, left = 20;
  const pos = new Map();
  const inits = evs.map((e, i) => [e, i]).filter(([e]) => e.thread < 0);
  inits.forEach(([e, i], k) => pos.set(i, { x: left + k * (W + 20), y: top }));
  threads.forEach((t, c) => {
    evs.map((e, i) => [e, i]).filter(([e]) => e.thread === t).forEach(([e, i], k) => {
      pos.set(i, { x: left + c * GX, y: top + 24 + (k + 1) * GY });
    });
  });
  let maxX = 0, maxY = 0;
  for (const p of pos.values()) { maxX = Math.max(maxX, p.x + W); maxY = Math.max(maxY, p.y + H); }
  const svg = el("svg", { width: maxX + 40, height: maxY + 30, viewBox: `0 0 ${maxX + 40} ${maxY + 30}`, role: "img" });
  const defs = el("defs", {}, svg);
  for (const [k, c] of Object.entries(colors)) {
    const m = el("marker", { id: "arrow-" + k, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", fill: c }, m);
  }
  threads.forEach((t, c) => {
    const tx = el("text", { x: left + c * GX + W / 2, y: top + 24 + GY - 8, "text-anchor": "middle", "font-weight": "bold", "font-size": 12 }, svg);
    tx.textContent = "P" + t;
  });
  const edges = [];
  const cyc = new Set();
  // The cycle's edges are numbered in its order, so that it reads as the
  // explanation's "Cycle:" line does.
  (cycle || []).forEach((s, i) => { edges.push({ from: s.from, to: s.to, rel: s.rel, cycle: true, step: i + 1 }); cyc.add(s.from + ">" + s.to); });
  if (cyc.size) svg.setAttribute("class", "has-cycle");
  const add = (list, rel) => (list || []).forEach(([a, b]) => { if (!cyc.has(a + ">" + b)) edges.push({ from: a, to: b, rel }); });
  // po: only between consecutive events of a thread.
  const next = new Map();
  for (const [a, b] of x.po || []) {
    const cur = next.get(a);
    if (cur === undefined || b < cur) next.set(a, b);
  }
  add([...next.entries()], "po");
  add(x.rf, "rf"); add(x.co, "co"); add(x.fr, "fr");
  const pairCount = new Map(), labels = [];
  for (const e of edges) {
    const a = pos.get(e.from), b = pos.get(e.to);
    if (!a || !b) continue;
    const key = Math.min(e.from, e.to) + "-" + Math.max(e.from, e.to);
    const n = pairCount.get(key) || 0;
    pairCount.set(key, n + 1);
    const ca = { x: a.x + W / 2, y: a.y + H / 2 }, cb = { x: b.x + W / 2, y: b.y + H / 2 };
    const p1 = clip(ca, cb, W, H), p2 = clip(cb, ca, W, H);
    const dx = p2.x - p1.x, dy = p2.y - p1.y, len = Math.hypot(dx, dy) || 1;
    let bend = (n % 2 ? -1 : 1) * (18 + 14 * Math.floor(n / 2));
    if (e.rel === "po" && !e.cycle) bend = 0;
    if (Math.abs(dx) < 1 && !(e.rel === "po" && !e.cycle)) bend = 55 + 20 * n;
    const mx = (p1.x + p2.x) / 2 - dy / len * bend, my = (p1.y + p2.y) / 2 + dx / len * bend;
    const color = e.cycle ? colors.cycle : colors[e.rel] || "#666";
    const g = el("g", { class: "edge" + (e.cycle ? " cycle" : ""), "data-rel": e.rel }, svg);
    const d = `M${p1.x},${p1.y} Q${mx},${my} ${p2.x},${p2.y}`;
    // A cycle edge is drawn over a wide pale halo, the other edges faded
    // (style.css), so that the cycle stands out from rf, which is red too.
    if (e.cycle) el("path", { d, class: "halo" }, g);
    el("path", { d, stroke: color, "marker-end": `url(#arrow-${e.cycle ? "cycle" : (colors[e.rel] ? e.rel : "po")})` }, g);
    // The labels go on top of the events, drawn last (a cycle edge
    // between events of one thread ran under the boxes, its label hidden).
    labels.push({ x: (p1.x + 2 * mx + p2.x) / 4 + 3, y: (p1.y + 2 * my + p2.y) / 4 - 3, color, cycle: e.cycle, text: e.cycle ? `${e.step}. ${e.rel}` : e.rel });
  }
  evs.forEach((e, i) => {
    const p = pos.get(i);
    const g = el("g", { class: "ev", "data-id": i }, svg);
    el("rect", { x: p.x, y: p.y, width: W, height: H, rx: 5 }, g);
    const t = el("text", { x: p.x + 8, y: p.y + 19 }, g);
    t.textContent = e.label;
  });
  const lg = el("g", { class: "labels" }, svg);
  for (const l of labels) {
    const t = el("text", { x: l.x, y: l.y, fill: l.color, class: l.cycle ? "cycle" : "" }, lg);
    t.textContent = l.text;
  }
  return svg;
}

// clip is where the segment from the centre a towards b leaves a's box.
function clip(a, b, W, H) {
  const dx = b.x - a.x, dy = b.y - a.y;
  if (dx === 0 && dy === 0) return a;
  const t = Math.min(dx ? (W / 2) / Math.abs(dx) : Infinity, dy ? (H / 2) / Math.abs(dy) : Infinity);
  return { x: a.x + dx * t, y: a.y + dy * t };
}
