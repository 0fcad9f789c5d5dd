// The stylesheet and the script of the register map, written beside the
// pages (no CDN, no web fonts: the site works offline from disk).
#include "tools/docgen/pages.hpp"

namespace regemu::docgen {

std::string_view StyleSheet() {
  return R"css(/* regemu doc: the register map's styles. */
:root { --ink: #1d2330; --muted: #5b6475; --line: #c9ced8; --bg: #ffffff; --band: #f3f5f9; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--ink); background: var(--bg); }
nav.top { background: #24364f; padding: 8px 20px; }
nav.top a { color: #fff; text-decoration: none; font-weight: 600; }
main { padding: 8px 20px 30px; max-width: 1280px; }
footer { color: var(--muted); font-size: 12px; padding: 10px 20px; border-top: 1px solid var(--line); }
h1 { font-size: 24px; margin: 14px 0 6px; }
h2 { font-size: 18px; margin: 22px 0 8px; border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 16px 0 6px; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 12.5px; }
a { color: #1f5fbf; }
.where, .source, .ref, .stats, .note { color: var(--muted); }
.marker { display: inline-block; font-size: 12px; font-weight: 600; padding: 1px 7px; border-radius: 9px; background: #e6e9ef; color: #38425a; vertical-align: middle; }
.marker.volatile { background: #fde2c4; }
.marker.masked { background: #d7e8ff; }
.marker.computed { background: #dff3e1; font-family: "DejaVu Sans Mono", monospace; }
.marker.gate { background: #f3e1f0; font-weight: 400; }
table { border-collapse: collapse; margin: 6px 0 10px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--band); font-weight: 600; }
td.num { font-family: "DejaVu Sans Mono", monospace; white-space: nowrap; }
td p { margin: 0 0 4px; }
ul.enum { margin: 0; padding-left: 16px; }
.picture { overflow-x: auto; }
ul.legend { list-style: none; padding: 0; margin: 6px 0; }
ul.legend li { margin: 2px 0; }
.swatch { display: inline-block; width: 12px; height: 12px; border: 1px solid #777; margin-right: 6px; vertical-align: -1px; }
ul.columns { columns: 3 260px; }
/* Policy families: the same fills in pictures (SVG) and swatches (HTML). */
.pf-rw { fill: #cfe2ff; background: #cfe2ff; }
.pf-ro { fill: #e3e5e8; background: #e3e5e8; }
.pf-status { fill: #ffc98f; background: #ffc98f; }
.pf-readfx { fill: #e2b8f2; background: #e2b8f2; }
.pf-once { fill: #fff0a6; background: #fff0a6; }
.pf-anywrite { fill: #ffb3cf; background: #ffb3cf; }
.pf-wo { fill: #b6f0dc; background: #b6f0dc; }
.pf-rsvd { fill: url(#regemu-hatch) #f4f4f4; background: repeating-linear-gradient(45deg, #f4f4f4 0 3px, #c4c4c4 3px 4px); }
svg rect { stroke: #4a5163; stroke-width: 1; }
svg text { font-family: system-ui, "DejaVu Sans", sans-serif; }
.bitfield .bitno { font-size: 9px; fill: var(--muted); text-anchor: middle; }
.bitfield .resetbit { font-size: 10px; fill: #6b7385; text-anchor: middle; font-family: "DejaVu Sans Mono", monospace; }
.bitfield .fieldname { font-size: 11px; text-anchor: middle; fill: var(--ink); }
.bitfield .fieldname.hanging { text-anchor: start; }
.bitfield g.field:hover rect, .bitfield g.field:target rect { stroke-width: 2.5; stroke: #1f5fbf; }
.bitfield g.uncovered rect { stroke: #c0392b; stroke-dasharray: 4 2; stroke-width: 2; }
.bitfield g.covered rect { stroke: #1e8449; stroke-width: 2.5; }
tr.field-row:target { outline: 2px solid #1f5fbf; }
/* Coverage. */
.covered { --cov: #1e8449; }
.uncovered { --cov: #c0392b; }
tr.covered td:first-child, li.covered { border-left: 4px solid #1e8449; }
tr.uncovered td:first-child, li.uncovered { border-left: 4px solid #c0392b; }
p.coverage { font-weight: 600; color: var(--cov); }
table.coverage-summary td.bar { width: 220px; }
.meter { height: 10px; background: #f2d7d5; border-radius: 5px; overflow: hidden; }
.meter > span { display: block; height: 100%; background: #27ae60; }
/* Index: the register finder beside the overview. */
main:has(.index-grid) { max-width: none; }
.index-grid { display: grid; grid-template-columns: minmax(320px, 34%) 1fr; gap: 24px; align-items: start; }
.finder { position: sticky; top: 0; max-height: 100vh; display: flex; flex-direction: column; }
.finder #register-list { overflow-y: auto; flex: 1; }
@media (max-width: 900px) { .index-grid { grid-template-columns: 1fr; } .finder { position: static; max-height: none; } }
#search { width: 100%; max-width: 640px; font-size: 16px; padding: 6px 10px; border: 1px solid #8a93a6; border-radius: 6px; }
#register-list { list-style: none; padding: 0; margin: 8px 0; }
#register-list li { padding: 2px 6px; border-bottom: 1px solid #eceef2; }
#register-list .at { color: var(--muted); font-family: "DejaVu Sans Mono", monospace; font-size: 12px; margin: 0 8px; }
#register-list .summary { color: var(--muted); display: block; font-size: 12px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
#diagnostics li.warning b { color: #a15c00; }
#diagnostics li.error b { color: #b00020; }
#diagnostics .clean { color: #1e8449; }
/* Address maps. */
.address-map .lane-bg, .forcewake-map .lane-bg { fill: #f6f7f9; stroke: #d8dce3; }
.address-map .tick, .forcewake-map .tick { fill: #24364f; stroke: none; }
.address-map .reserved { fill: #cfd3da; stroke: none; }
.address-map .window { fill: #7fb3e6; stroke: none; }
.address-map .domain, .forcewake-map .domain { stroke: none; opacity: 0.85; }
.lane-label, .axis { font-size: 11px; fill: var(--muted); }
.map-rows { font-size: 12px; }
.map-rows .row, .map-rows .band, .map-rows .fold { display: flex; align-items: center; min-height: 24px; border-bottom: 1px solid #eef0f4; }
.map-rows .addr { width: 90px; flex: none; font-family: "DejaVu Sans Mono", monospace; color: var(--muted); }
.map-rows .lane { position: relative; flex: 1; height: 22px; background: #fafbfc; border: 1px solid #e3e6ec; }
.map-rows .reg { position: absolute; top: 1px; bottom: 1px; overflow: hidden; white-space: nowrap; font-size: 11px; padding: 2px 3px; border: 1px solid #4a5163; color: var(--ink); text-decoration: none; }
.map-rows .reg:hover { z-index: 1; overflow: visible; outline: 2px solid #1f5fbf; }
.map-rows .reg.uncovered { border: 2px dashed #c0392b; }
.map-rows .reg.covered { border: 2px solid #1e8449; }
.map-rows .band.reserved { background: repeating-linear-gradient(45deg, #f7f7f7 0 6px, #e6e6e6 6px 8px); }
.map-rows .band.window { background: #e3f0fc; }
.map-rows .fold { color: var(--muted); font-style: italic; padding-left: 100px; background: #fcfcfd; }
.stripes { display: inline-flex; width: 18px; height: 20px; margin-right: 4px; flex: none; }
.stripe { display: inline-block; width: 6px; height: 100%; min-height: 12px; }
ul.legend .stripe { width: 14px; height: 12px; vertical-align: -1px; }
/* Behaviour pictures. */
.interrupt-tree rect.engine { fill: #cfe2ff; }
.interrupt-tree rect.gate { fill: #fff0a6; }
.interrupt-tree rect.bank { fill: #ffc98f; }
.interrupt-tree rect.child { fill: #e2b8f2; }
.interrupt-tree rect.master { fill: #b6f0dc; }
.interrupt-tree .node { font-size: 12px; }
.interrupt-tree .detail, .interrupt-tree .edge-label { font-size: 10px; fill: var(--muted); }
.interrupt-tree .column { font-size: 12px; font-weight: 600; fill: var(--muted); }
.interrupt-tree .edge { fill: none; stroke: #7a8396; stroke-width: 1.3; }
.interrupt-tree a text, .interrupt-tree text a { fill: #1f5fbf; }
.oa-layout .fieldname { font-size: 10px; text-anchor: middle; }
.oa-id { fill: #ffc98f; } .oa-time { fill: #b6f0dc; } .oa-ctx { fill: #e2b8f2; } .oa-ticks { fill: #fff0a6; }
.oa-rsvd { fill: #eeeeee; } .oa-a { fill: #cfe2ff; } .oa-ahigh { fill: #a9c8f5; } .oa-b { fill: #ffd9e6; } .oa-c { fill: #d5f5c4; }
)css";
}

std::string_view PageScript() {
  return R"js(// regemu doc: the index's search and deep links. No network: the register
// list comes from registers.js, loaded by a <script> tag beside this one.
(function () {
  "use strict";
  var registers = window.REGEMU_REGISTERS;
  if (!registers) return;  // not the index

  var names = new Set();
  for (var i = 0; i < registers.length; i++) names.add(registers[i][0]);

  // index.html#PCICMD lands on PCICMD's page.
  function followHash() {
    var name = decodeURIComponent(location.hash.slice(1));
    if (names.has(name)) location.replace("r/" + encodeURIComponent(name) + ".html");
  }
  followHash();
  window.addEventListener("hashchange", followHash);

  var input = document.getElementById("search");
  var list = document.getElementById("register-list");
  var count = document.getElementById("match-count");
  if (!input || !list || !count) return;

  // Names lower-cased once; an offset query ("0x2358") matches offsets by prefix.
  var lowered = registers.map(function (r) { return r[0].toLowerCase(); });
  var LIMIT = 300;  // rows drawn; the count says how many more match

  function escapeHtml(text) {
    return text.replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  function render() {
    var query = input.value.trim().toLowerCase();
    var byOffset = /^0x[0-9a-f]*$/.test(query);
    var html = [];
    var matches = 0;
    for (var i = 0; i < registers.length; i++) {
      var r = registers[i];
      var hit = query === "" || lowered[i].indexOf(query) !== -1 || (byOffset && r[2].indexOf(query) === 0);
      if (!hit) continue;
      matches++;
      if (matches > LIMIT) continue;
      var cls = r[4] === 1 ? ' class="covered"' : r[4] === 0 ? ' class="uncovered"' : "";
      html.push('<li data-name="' + escapeHtml(r[0]) + '"' + cls + '><a href="r/' + encodeURIComponent(r[0]) + '.html">' +
                escapeHtml(r[0]) + '</a> <span class="at">' + escapeHtml(r[1]) + " " + r[2] + '</span> <span class="summary">' +
                escapeHtml(r[3]) + "</span></li>");
    }
    list.innerHTML = html.join("");
    var total = registers.length + " registers";
    count.textContent = (query === "" ? total : matches + " of " + total) +
                        (matches > LIMIT ? ", first " + LIMIT + " shown" : "");
  }
  input.addEventListener("input", render);
  render();
})();
)js";
}

}  // namespace regemu::docgen
