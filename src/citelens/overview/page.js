// The overview page's tables and drill-down, built from the data embedded in the page.
// Text goes in through textContent only: nothing from a run is ever parsed as HTML.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("overview-data").textContent);
  var PAGE = 50;
  var vscode = typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : null;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      for (var key in attrs) {
        if (key === "text") node.textContent = attrs[key];
        else if (key === "cls") node.className = attrs[key];
        else node.setAttribute(key, attrs[key]);
      }
    }
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }
  function badge(kind) { return el("span", { cls: "badge " + (kind || "none"), text: kind || "not judged" }); }
  function where(path, line, column) { return el("span", { cls: "where", text: path + ":" + line + ":" + column }); }
  function reveal(path, line, column) {
    if (vscode) vscode.postMessage({ command: "reveal", path: path, line: line, column: column });
  }
  function docsLink(code, docs) {
    var a = el("a", { text: code, href: docs || "#" });
    if (vscode && docs) {
      a.addEventListener("click", function (event) { event.preventDefault(); vscode.postMessage({ command: "open", uri: docs }); });
    }
    return a;
  }
  function share(n, total) { return total ? Math.round((100 * n) / total) + "%" : "–"; }

  // A sortable table shown one page at a time (a 10,000-report run draws 50 rows).
  function pagedTable(host, columns, rows, onRow) {
    var state = { page: 0, sort: null, desc: false, filter: "" };
    var table = el("table");
    var head = el("tr");
    columns.forEach(function (col, i) {
      var th = el("th", { text: col.title, cls: col.num ? "num" : "" });
      if (col.group) th.setAttribute("data-group", col.group);
      th.addEventListener("click", function () {
        state.desc = state.sort === i ? !state.desc : !!col.num;
        state.sort = i;
        state.page = 0;
        draw();
      });
      head.appendChild(th);
    });
    table.appendChild(el("thead", null, [head]));
    var body = el("tbody");
    table.appendChild(body);
    var info = el("span", { cls: "muted" });
    var prev = el("button", { text: "‹ previous", type: "button" });
    var next = el("button", { text: "next ›", type: "button" });
    var filter = el("input", { cls: "filter", type: "search", placeholder: "filter rows…", "aria-label": "filter rows" });
    prev.addEventListener("click", function () { state.page -= 1; draw(); });
    next.addEventListener("click", function () { state.page += 1; draw(); });
    filter.addEventListener("input", function () { state.filter = filter.value.toLowerCase(); state.page = 0; draw(); });
    host.appendChild(el("div", { cls: "pager" }, [filter, prev, next, info]));
    host.appendChild(table);
    function visible() {
      var out = rows;
      if (state.filter) {
        out = out.filter(function (row) {
          return columns.some(function (col) { return String(col.value(row)).toLowerCase().indexOf(state.filter) >= 0; });
        });
      }
      if (state.sort !== null) {
        var col = columns[state.sort];
        out = out.slice().sort(function (a, b) {
          var x = col.value(a), y = col.value(b);
          var c = x < y ? -1 : x > y ? 1 : 0;
          return state.desc ? -c : c;
        });
      }
      return out;
    }
    function draw() {
      var shown = visible();
      var pages = Math.max(1, Math.ceil(shown.length / PAGE));
      state.page = Math.min(Math.max(state.page, 0), pages - 1);
      var fragment = document.createDocumentFragment();
      shown.slice(state.page * PAGE, (state.page + 1) * PAGE).forEach(function (row) {
        var tr = el("tr", { cls: onRow ? "clickable" : "" });
        columns.forEach(function (col) {
          var value = col.value(row);
          var td = el("td", { cls: col.num ? "num" : "", text: col.show ? col.show(row) : String(value) });
          if (col.group) td.setAttribute("data-group", col.group);
          tr.appendChild(td);
        });
        if (onRow) {
          tr.addEventListener("click", function () {
            Array.prototype.forEach.call(body.querySelectorAll("tr.selected"), function (r) { r.classList.remove("selected"); });
            tr.classList.add("selected");
            onRow(row);
          });
        }
        fragment.appendChild(tr);
      });
      body.replaceChildren(fragment);
      info.textContent = shown.length + " rows, page " + (state.page + 1) + " of " + pages;
      prev.disabled = state.page === 0;
      next.disabled = state.page >= pages - 1;
    }
    draw();
  }

  function verdictColumns(get) {
    return ["supported", "partial", "unsupported", "unchecked"].map(function (v) {
      return { title: v, num: true, value: function (row) { return get(row)[v]; } };
    });
  }

  function showDetail(run, host, row) {
    var detail = run.details[row.number - 1];
    host.replaceChildren();
    host.appendChild(el("h4", { text: "Report " + row.number + (row.topic_id ? " — topic " + row.topic_id : "") }, []));
    host.appendChild(where(run.path, row.line, row.column));
    var loose = detail.findings.filter(function (f) { return f.sentence === null; });
    function findingNode(f) {
      var node = el("div", { cls: "finding reveal", "data-code": f.code }, [
        badge(f.severity), document.createTextNode(" "), docsLink(f.code, codeDocs(run, f.code)),
        document.createTextNode(" " + f.message + " "), where(run.path, f.line, f.column),
      ]);
      node.addEventListener("click", function (event) {
        if (event.target.tagName !== "A") reveal(run.path, f.line, f.column);
      });
      return node;
    }
    loose.forEach(function (f) { host.appendChild(findingNode(f)); });
    detail.sentences.forEach(function (s, i) {
      var node = el("div", { cls: "sentence reveal" }, [badge(s.verdict), document.createTextNode(" "), el("span", { cls: "text", text: s.text })]);
      node.addEventListener("click", function (event) {
        if (event.target === node || event.target.classList.contains("text")) reveal(run.path, s.line, s.column);
      });
      s.citations.forEach(function (c) {
        var cite = el("div", { cls: "citation" }, [
          el("span", { cls: "mono", text: c.doc_id === null ? "(unresolved citation)" : c.doc_id }),
          document.createTextNode(" "), c.verdict ? badge(c.verdict) : null,
          document.createTextNode(c.score !== null ? " score " + c.score.toFixed(2) + (c.judge ? " (" + c.judge + ")" : "") : ""),
        ]);
        c.passages.forEach(function (p) {
          var passage = el("div", { cls: "passage" });
          p.parts.forEach(function (part) { passage.appendChild(part[1] ? el("mark", { text: part[0] }) : document.createTextNode(part[0])); });
          cite.appendChild(passage);
        });
        node.appendChild(cite);
      });
      detail.findings.filter(function (f) { return f.sentence === i; }).forEach(function (f) { node.appendChild(findingNode(f)); });
      host.appendChild(node);
    });
    if (!detail.sentences.length && !detail.findings.length) host.appendChild(el("p", { cls: "muted", text: "No sentences and no findings." }));
    host.scrollIntoView({ block: "nearest" });
  }

  function codeDocs(run, code) {
    for (var i = 0; i < run.codes.length; i++) if (run.codes[i].code === code) return run.codes[i].docs;
    return null;
  }

  // One column per judge-and-tier group of the run: the topic's supported share of the
  // citations that group judged ("60% of 5"), sorted by the share.
  function groupColumns(run) {
    return (run.support ? run.support.by_judge_tier : []).map(function (g) {
      function counts(t) { return t.by_judge_tier[g.key] || { supported: 0, partial: 0, unsupported: 0, unchecked: 0 }; }
      function judged(t) { var v = counts(t); return v.supported + v.partial + v.unsupported; }
      return {
        title: "supported (" + g.key + ")", num: true, group: g.key,
        value: function (t) { var n = judged(t); return n ? counts(t).supported / n : -1; },
        show: function (t) { var n = judged(t); return n ? share(counts(t).supported, n) + " of " + n : "–"; },
      };
    });
  }

  data.runs.forEach(function (run, r) {
    var topics = document.getElementById("topics-" + r);
    pagedTable(topics, [
      { title: "topic", value: function (t) { return t.topic_id; } },
      { title: "reports", num: true, value: function (t) { return t.reports; } },
      { title: "errors", num: true, value: function (t) { return t.findings.errors; } },
      { title: "warnings", num: true, value: function (t) { return t.findings.warnings; } },
      { title: "infos", num: true, value: function (t) { return t.findings.infos; } },
    ].concat(verdictColumns(function (t) { return t.verdicts; }), groupColumns(run)), run.topics, null);
    var detailHost = document.getElementById("detail-" + r);
    pagedTable(document.getElementById("reports-" + r), [
      { title: "#", num: true, value: function (row) { return row.number; } },
      { title: "line", num: true, value: function (row) { return row.line; } },
      { title: "topic", value: function (row) { return row.topic_id || ""; } },
      { title: "sentences", num: true, value: function (row) { return row.sentences; } },
      { title: "errors", num: true, value: function (row) { return row.findings.errors; } },
      { title: "warnings", num: true, value: function (row) { return row.findings.warnings; } },
      { title: "supported", num: true, value: function (row) { return row.verdicts.supported; },
        show: function (row) { var v = row.verdicts; return share(v.supported, v.supported + v.partial + v.unsupported); } },
      { title: "groundedness", num: true, value: function (row) { return row.groundedness === null ? -1 : row.groundedness; },
        show: function (row) { return row.groundedness === null ? "–" : row.groundedness.toFixed(2); } },
    ], run.rows, function (row) { showDetail(run, detailHost, row); });
  });
  document.body.setAttribute("data-ready", "true");
})();
