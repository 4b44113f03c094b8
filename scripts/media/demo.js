/* Scripted Tieout demo. Everything on screen is a pure function of t (seconds): see renderAt(). */
(function () {
  "use strict";

  // ---------------------------------------------------------------- shared art
  // Same geometry as MARK_INNER in scripts/make-brand-assets.ts (favicon.svg).
  const MARK_INNER =
    '<rect width="64" height="64" rx="14" fill="#1f7a5a"/>' +
    '<path d="M18 24l9 9 19-19" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>' +
    '<path d="M16 42h32M16 50h32" stroke="#fff" stroke-width="4" stroke-linecap="round"/>';
  const MARK_INV =
    '<path d="M17 25l9.5 9.5L47 14" fill="none" stroke="#fff" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/>' +
    '<path d="M14 45h36M14 53h36" stroke="#fff" stroke-width="4.5" stroke-linecap="round"/>';
  const TICK =
    '<path d="M3.5 9.5l3.5 3.5 7.5-8.5" fill="none" stroke="#1f7a5a" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>';
  const OK_ICON =
    '<svg viewBox="0 0 20 20"><circle cx="10" cy="10" r="10" fill="#1f7a5a"/><path d="M5.8 10.4l2.7 2.7 5.7-6.2" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>';
  const SPIN_ICON =
    '<svg viewBox="0 0 20 20"><circle cx="10" cy="10" r="8.2" fill="none" stroke="#e3efe8" stroke-width="2.4"/><path d="M10 1.8a8.2 8.2 0 0 1 8.2 8.2" fill="none" stroke="#1f7a5a" stroke-width="2.4" stroke-linecap="round"/></svg>';
  const LINK_ICON =
    '<svg width="14" height="14" viewBox="0 0 16 16"><path d="M6.6 9.4a3 3 0 0 0 4.2 0l2.3-2.3a3 3 0 0 0-4.2-4.2l-.9.9M9.4 6.6a3 3 0 0 0-4.2 0L2.9 8.9a3 3 0 0 0 4.2 4.2l.9-.9" fill="none" stroke="#1f7a5a" stroke-width="1.6" stroke-linecap="round"/></svg>';
  const FLAG_ICON =
    '<svg width="14" height="14" viewBox="0 0 16 16"><path d="M3.5 14.5V2.2M3.5 2.5h8.3l-1.9 3.2 1.9 3.2H3.5" fill="none" stroke="#b7791f" stroke-width="1.7" stroke-linecap="round" stroke-linejoin="round"/></svg>';

  document.querySelectorAll("svg[data-mark]").forEach((s) => (s.innerHTML = MARK_INNER));
  document.querySelectorAll("svg[data-mark-inv]").forEach((s) => (s.innerHTML = MARK_INV));
  document.querySelectorAll("svg[data-tick]").forEach((s) => (s.innerHTML = TICK));

  // ---------------------------------------------------------------- the books (invented, and they add up)
  // txt: the amount was typed as text (left-aligned, Excel's green corner marker).
  const ACCTS = [
    {
      n: "1000",
      raw: "cash - operating",
      name: "Cash – operating",
      dr: 99250,
      rawAmt: "99250",
      txt: true,
      cat: "Asset",
    },
    {
      n: "1200",
      raw: "A/R trade",
      name: "Accounts receivable",
      dr: 96430,
      rawAmt: "96,430.00",
      cat: "Asset",
    },
    {
      n: "1500",
      raw: "Equipment & machinery",
      name: "Equipment",
      dr: 312800,
      rawAmt: "312800.0",
      txt: true,
      cat: "Fixed asset",
    },
    {
      n: "1550",
      raw: "accum depr",
      name: "Accumulated depreciation",
      cr: 118640,
      rawAmt: "(118,640)",
      txt: true,
      cat: "Contra-asset",
    },
    {
      n: "2000",
      raw: "Accts Payable",
      name: "Accounts payable",
      cr: 58915,
      rawAmt: "58915",
      cat: "Liability",
    },
    {
      n: "3900",
      raw: "RE - beg",
      name: "Retained earnings, beg.",
      cr: 221470,
      rawAmt: "221,470",
      txt: true,
      cat: "Equity",
      cls: "eq",
    },
    {
      n: "3950",
      raw: "Distributions",
      name: "Shareholder distributions",
      dr: 60000,
      rawAmt: "60000.00",
      cat: "Equity",
      cls: "eq",
    },
    {
      n: "4000",
      raw: "SALES",
      name: "Sales revenue",
      cr: 1148600,
      rawAmt: "1148600",
      cat: "Revenue",
      cls: "rev",
    },
    {
      n: "5000",
      raw: "COGS",
      name: "Cost of goods sold",
      dr: 612380,
      rawAmt: "612,380.00",
      cat: "Cost of sales",
      cls: "exp",
    },
    {
      n: "6100",
      raw: "wages+payroll tx",
      name: "Wages & payroll taxes",
      dr: 248900,
      rawAmt: "248900",
      txt: true,
      cat: "Expense",
      cls: "exp",
    },
    {
      n: "6400",
      raw: "meals",
      name: "Business meals",
      dr: 14860,
      rawAmt: "14,860",
      txt: true,
      cat: "Expense",
      cls: "exp",
    },
    {
      n: "6500",
      raw: "Depreciation exp",
      name: "Depreciation expense",
      dr: 41720,
      rawAmt: "41720",
      cat: "Expense",
      cls: "exp",
    },
    {
      n: "6800",
      raw: "Penalties/fines",
      name: "Penalties & fines",
      dr: 2350,
      rawAmt: "2,350.00",
      txt: true,
      cat: "Expense",
      cls: "exp",
    },
    {
      n: "6900",
      raw: "Rent",
      name: "Rent",
      dr: 58935,
      rawAmt: "58935",
      cat: "Expense",
      cls: "exp",
    },
  ];
  const TAX_DEPRECIATION = 58960; // MACRS, from the fixed asset register
  // Order of flagging = order of the pane's cards.
  const M1 = [
    {
      row: 10,
      title: "Meals – 50% nondeductible",
      amt: 14860 * 0.5,
      src: "invoice_0412.pdf",
      formula: "=C13*50%",
    },
    {
      row: 12,
      title: "Penalties – nondeductible",
      amt: 2350,
      src: "state_penalty_notice.pdf",
      formula: "=C15",
    },
    {
      row: 11,
      title: "Depreciation – book vs tax",
      amt: 41720 - TAX_DEPRECIATION,
      src: "fixed_asset_register.xlsx",
      formula: "=C14-'M1 detail'!D8",
    },
  ];

  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  const totalDr = sum(ACCTS.map((a) => a.dr || 0));
  const totalCr = sum(ACCTS.map((a) => a.cr || 0));
  const revenue = 1148600;
  const expenses = sum(ACCTS.filter((a) => a.n >= "5000").map((a) => a.dr || 0));
  const netIncome = revenue - expenses;
  const reBeg = 221470;
  const dist = 60000;
  const reEnd = reBeg + netIncome - dist;
  const assets = 99250 + 96430 + 312800 - 118640;
  const liabilities = 58915;
  if (totalDr !== totalCr) throw new Error("TB does not balance: " + totalDr + " vs " + totalCr);
  if (assets !== liabilities + reEnd) throw new Error("Balance sheet does not tie");
  const m1Net = sum(M1.map((m) => m.amt));
  if (m1Net !== -7460) throw new Error("M1 net changed: " + m1Net);

  const fmt = (n) => {
    const s = Math.abs(n).toLocaleString("en-US", {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    return n < 0 ? "(" + s + ")" : s;
  };

  // ---------------------------------------------------------------- timeline (seconds)
  const DURATION = 23.0;
  const T = {
    rowsIn: 0.5, // title/header rows
    rowIn: (i) => 0.85 + i * 0.12,
    steps: [
      [0.6, 3.2],
      [3.3, 6.9],
      [7.0, 11.6],
      [11.7, 15.5],
    ],
    chip: (i) => 3.55 + i * 0.22,
    flag: (k) => 7.35 + k * 1.25,
    rowTick: (i) => 12.05 + i * 0.07,
    totalsIn: 12.15,
    sglLine: 12.35,
    dblLine: 12.6,
    totalTick: 13.05,
    rec1: 12.3,
    rec2: 13.45,
    reLine: (j) => 13.7 + j * 0.28,
    reDbl: 14.65,
    reTick: 15.0,
    allDone: 15.6,
    dim: 16.0,
    card: 16.2,
    item: (j) => 16.55 + j * 0.15,
    ptime: 17.05,
    shrink: [17.35, 18.55],
    end: 20.2,
  };
  // Short cues (two lines of at most ~47 characters) so players show them cleanly.
  const CAPTIONS = [
    [
      0.0,
      3.3,
      "A messy 2025 trial balance lands in Excel:\n14 accounts, some amounts typed as text.",
    ],
    [
      3.3,
      7.0,
      "The Tieout agent categorizes each account\nand cleans up names and number formats.",
    ],
    [
      7.0,
      9.4,
      "It flags M1 book-to-tax adjustments: meals\n50% nondeductible, penalties nondeductible,",
    ],
    [9.4, 11.7, "and book vs. tax depreciation,\neach tied to its source document."],
    [
      11.7,
      13.6,
      "Reconciliation: debits equal credits at\n1,547,625.00. Tickmarks mark each figure.",
    ],
    [
      13.6,
      16.0,
      "The retained earnings roll-forward ties out:\n221,470 + 169,455 − 60,000 = 330,925.",
    ],
    [16.0, 17.4, "Workpaper ready for review."],
    [17.4, 20.2, "Prep time: 6 h 10 m of manual work becomes\na 1 h 05 m review, about 80% less."],
    [
      20.2,
      DURATION,
      "Tieout: AI agents that prepare your workpapers,\ninside Excel. Now in private beta.",
    ],
  ];

  // ---------------------------------------------------------------- easing helpers
  const clamp = (x, a = 0, b = 1) => Math.min(b, Math.max(a, x));
  const prog = (t, a, d) => clamp((t - a) / d);
  const eio = (x) => (x < 0.5 ? 4 * x * x * x : 1 - Math.pow(-2 * x + 2, 3) / 2);
  const eout = (x) => 1 - Math.pow(1 - x, 3);
  const eback = (x) => {
    const c1 = 1.2;
    const c3 = c1 + 1;
    return x <= 0 ? 0 : x >= 1 ? 1 : 1 + c3 * Math.pow(x - 1, 3) + c1 * Math.pow(x - 1, 2);
  };
  const lerp = (a, b, x) => a + (b - a) * x;
  const r3 = (x) => Math.round(x * 1000) / 1000;
  const show = (el, o, dy = 0, sc = 1) => {
    el.style.opacity = String(r3(o));
    el.style.visibility = o <= 0.001 ? "hidden" : "visible";
    el.style.transform = dy || sc !== 1 ? `translateY(${r3(dy)}px) scale(${r3(sc)})` : "none";
  };

  // ---------------------------------------------------------------- grid construction
  const grid = document.getElementById("grid");
  const COLS = ["A", "B", "C", "D", "E", "F", "G", "H"];
  const COLW = [60, 226, 124, 124, 118, 108, 40, 120];
  const RH = 28;
  const HDR = 24;
  const RNW = 40;
  const colX = [];
  {
    let x = RNW;
    for (const w of COLW) {
      colX.push(x);
      x += w;
    }
  }
  const NROWS = 18;
  const rowY = (r) => HDR + (r - 1) * RH;
  const mk = (cls, parent, html) => {
    const el = document.createElement("div");
    if (cls) el.className = cls;
    if (html !== undefined) el.innerHTML = html;
    (parent || grid).appendChild(el);
    return el;
  };
  const place = (el, x, y, w, h) => {
    el.style.left = x + "px";
    el.style.top = y + "px";
    el.style.width = w + "px";
    el.style.height = h + "px";
    return el;
  };

  // row highlights (behind everything)
  const rowHl = {};
  for (const m of M1) {
    const r = m.row + 3;
    rowHl[m.row] = {
      bg: place(mk("rowhl"), RNW, rowY(r), colX[7] - RNW, RH),
      bar: place(mk("rowbar"), RNW, rowY(r), 3, RH),
    };
  }
  // gridlines
  for (let r = 1; r <= NROWS; r++) place(mk("gl"), RNW, rowY(r) + RH - 1, 2000, 1);
  for (let c = 0; c < COLS.length; c++) place(mk("gl"), colX[c] + COLW[c] - 1, HDR, 1, 1000);
  // headers
  const colHdrs = COLS.map((c, i) => place(mk("colhdr", grid, c), colX[i], 0, COLW[i], HDR));
  place(mk("colhdr"), 0, 0, RNW, HDR);
  const rowHdrs = [null];
  for (let r = 1; r <= NROWS; r++)
    rowHdrs.push(place(mk("rowhdr", grid, String(r)), 0, rowY(r), RNW, RH));

  const cell = (c, r, cls, html) =>
    place(mk("cell " + (cls || ""), grid, html), colX[c], rowY(r), COLW[c], RH);

  const titleCell = cell(
    0,
    1,
    "title-cell",
    "Harbor &amp; Pine Cabinetry LLC — Trial balance as of 12/31/2025",
  );
  const hdrCells = ["Acct", "Account", "Debit", "Credit", "Category", "M1 adj.", ""].map((h, i) =>
    cell(i, 2, "hdr-cell" + (i >= 2 && i <= 3 ? " num" : i === 5 ? " num" : ""), h),
  );
  const hdrRule = place(mk("gl"), RNW, rowY(2) + RH - 1.5, colX[7] - RNW, 1.5);
  hdrRule.style.background = "#b9b3a3";

  const rows = ACCTS.map((a, i) => {
    const r = i + 3;
    const amtCol = a.dr ? 2 : 3;
    const o = { r, a };
    o.els = [];
    o.acct = cell(0, r, "acct", a.n);
    o.name = cell(
      1,
      r,
      "",
      `<span class="raw">${a.raw}</span><span class="clean">${a.name}</span>`,
    );
    o.amt = cell(
      amtCol,
      r,
      "num",
      `<span class="raw ${a.txt ? "txt" : "right"}">${a.rawAmt}</span><span class="clean">${fmt(a.dr || a.cr)}</span>`,
    );
    o.els.push(o.acct, o.name, o.amt);
    o.chipCell = cell(4, r, "", `<span class="chip ${a.cls || ""}">${a.cat}</span>`);
    o.chip = o.chipCell.firstElementChild;
    o.tick = place(
      mk("tick", grid, `<svg viewBox="0 0 18 18">${TICK}</svg>`),
      colX[6] + 11,
      rowY(r) + 5,
      18,
      18,
    );
    return o;
  });
  for (const m of M1) {
    m.cell = cell(5, m.row + 3, "num", `<span class="m1">${fmt(m.amt)}</span>`);
  }
  const TR = 17;
  const totLabel = cell(1, TR, "total-cell", "Total");
  const totDr = cell(2, TR, "num total-cell", fmt(totalDr));
  const totCr = cell(3, TR, "num total-cell", fmt(totalCr));
  const totTick = place(
    mk("tick", grid, `<svg viewBox="0 0 18 18">${TICK}</svg>`),
    colX[6] + 11,
    rowY(TR) + 5,
    18,
    18,
  );
  const lines = [];
  for (const c of [2, 3]) {
    const w = COLW[c] - 22;
    const x = colX[c] + COLW[c] - 9 - w;
    lines.push({
      sgl: place(mk("uline"), x, rowY(TR) + 3, w, 1.2),
      d1: place(mk("uline"), x, rowY(TR) + 22, w, 1.5),
      d2: place(mk("uline"), x, rowY(TR) + 25.5, w, 1.5),
    });
  }
  const sel = mk("");
  sel.id = "sel";

  // selection keyframes: [time, col, row]
  const SEL = [[0, 0, 1]];
  SEL.push([T.steps[1][0] + 0.05, 4, 3]);
  ACCTS.forEach((_, i) => SEL.push([T.chip(i), 4, i + 3]));
  M1.forEach((m, k) => SEL.push([T.flag(k), 5, m.row + 3]));
  SEL.push([T.totalsIn, 2, TR]);
  SEL.push([T.rec2 + 0.1, 3, TR]);
  const formulaFor = (c, r, t) => {
    if (r === 1) return "Harbor &amp; Pine Cabinetry LLC — Trial balance as of 12/31/2025";
    if (r === TR) return c === 2 ? "=SUM(C3:C16)" : "=SUM(D3:D16)";
    const i = r - 3;
    if (c === 4) return t >= T.chip(i) ? ACCTS[i].cat : "";
    if (c === 5) {
      const m = M1.find((mm) => mm.row === i);
      return m ? m.formula : "";
    }
    return "";
  };

  // ---------------------------------------------------------------- pane construction
  const stepEls = [0, 1, 2, 3].map((k) => {
    const root = document.getElementById("step" + k);
    const icon = root.querySelector(".sicon");
    icon.innerHTML = `<div class="pend"></div><div class="spin">${SPIN_ICON}</div><div class="ok">${OK_ICON}</div>`;
    return {
      root,
      pend: icon.children[0],
      spin: icon.children[1],
      ok: icon.children[2],
      ss: root.querySelector(".ss"),
      sb: root.querySelector(".sb"),
      sbi: root.querySelector(".sbi"),
    };
  });
  const s0lines = [0, 1, 2].map((j) => document.querySelector("#step0 .l" + j));
  const catBar = document.getElementById("catBar");
  const catCount = document.getElementById("catCount");
  const catCur = document.getElementById("catCur");
  const m1cards = document.getElementById("m1cards");
  const cards = M1.map((m) => {
    const w = document.createElement("div");
    w.className = "cw";
    w.style.overflow = "hidden";
    w.innerHTML =
      `<div class="card"><div class="r1">${FLAG_ICON}<span>${m.title}</span><span class="amt">${fmt(m.amt)}</span></div>` +
      `<div class="r2">${LINK_ICON}<span>tied to source: <b>${m.src}</b></span></div></div>`;
    m1cards.appendChild(w);
    return { w, card: w.firstElementChild };
  });
  const rec1w = document.getElementById("rec1w");
  const rec2w = document.getElementById("rec2w");
  [rec1w, rec2w].forEach((w) => (w.style.overflow = "hidden"));
  document.getElementById("recAmt").textContent = fmt(totalDr) + " = " + fmt(totalCr);
  const reRows = [0, 1, 2, 3].map((j) => document.querySelector("#rec2 .re" + j));
  const reVals = [fmt(reBeg), fmt(netIncome), fmt(-dist), fmt(reEnd)];
  reRows.forEach((rw, j) => {
    const span = rw.lastElementChild;
    span.insertAdjacentText("afterbegin", reVals[j]);
  });
  const reSgl = document.querySelector("#rec2 .sgl");
  const reDbl = document.querySelector("#rec2 .dbl");
  const rec1tk = document.getElementById("rec1tk");
  const rec2tk = document.getElementById("rec2tk");
  rec1tk.innerHTML = `<svg viewBox="0 0 18 18" width="18" height="18">${TICK}</svg>`;
  rec2tk.innerHTML = `<svg viewBox="0 0 18 18" width="18" height="18">${TICK}</svg>`;

  const stWorking = document.getElementById("stWorking");
  const stDone = document.getElementById("stDone");
  const stDot = document.getElementById("stDot");
  const namebox = document.getElementById("namebox");
  const formula = document.getElementById("formula");
  const statusbar = document.getElementById("statusbar");

  const dim = document.getElementById("dim");
  const summary = document.getElementById("summary");
  const sItems = [...document.querySelectorAll("#summary .si")];
  const ptime = document.getElementById("ptime");
  const tieFill = document.getElementById("tieFill");
  const tieVal = document.getElementById("tieVal");
  const pct = document.getElementById("pct");
  const endcard = document.getElementById("endcard");
  const lockup = endcard.querySelector(".lockup");
  const tag = endcard.querySelector(".tag");
  const beta = endcard.querySelector(".beta");

  const hm = (mins) => {
    const m = Math.round(mins);
    return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} m`;
  };
  const MANUAL_MIN = 6 * 60 + 10;
  const REVIEW_MIN = 65;

  // ---------------------------------------------------------------- renderAt
  function renderAt(t) {
    // --- grid: title and header rows
    const hIn = eout(prog(t, T.rowsIn, 0.35));
    show(titleCell, hIn);
    hdrCells.forEach((c) => show(c, hIn));
    show(hdrRule, hIn);

    // --- accounts typing in, then cleanup + chips
    rows.forEach((o, i) => {
      const p = eout(prog(t, T.rowIn(i), 0.3));
      o.els.forEach((el) => show(el, p, (1 - p) * 5));
      const c = prog(t, T.chip(i), 0.32);
      const ce = eio(c);
      for (const el of [o.name, o.amt]) {
        const raw = el.querySelector(".raw");
        const clean = el.querySelector(".clean");
        // raw text fades out first, then the cleaned value fades in (no overlapping text)
        raw.style.opacity = String(r3(clamp(1 - 2 * ce)));
        clean.style.opacity = String(r3(clamp(2 * ce - 1)));
      }
      const chipP = eback(c);
      show(o.chipCell, clamp(c * 1.6), 0, 1);
      o.chip.style.transform = `scale(${r3(lerp(0.7, 1, chipP))})`;
      const tk = prog(t, T.rowTick(i), 0.3);
      show(o.tick, clamp(tk * 1.5), 0, lerp(0.5, 1, eback(tk)));
    });

    // --- M1 flags
    M1.forEach((m, k) => {
      const p = eout(prog(t, T.flag(k), 0.4));
      show(rowHl[m.row].bg, p);
      show(rowHl[m.row].bar, p);
      show(m.cell, eout(prog(t, T.flag(k) + 0.15, 0.35)), 0, 1);
    });

    // --- totals and rules
    const tIn = eout(prog(t, T.totalsIn, 0.35));
    show(totLabel, tIn);
    show(totDr, tIn);
    show(totCr, tIn);
    const sg = eio(prog(t, T.sglLine, 0.35));
    const db = eio(prog(t, T.dblLine, 0.4));
    lines.forEach((l) => {
      l.sgl.style.transform = `scaleX(${r3(sg)})`;
      l.d1.style.transform = `scaleX(${r3(db)})`;
      l.d2.style.transform = `scaleX(${r3(eio(prog(t, T.dblLine + 0.08, 0.4)))})`;
      l.sgl.style.visibility = sg > 0 ? "visible" : "hidden";
      l.d1.style.visibility = db > 0 ? "visible" : "hidden";
      l.d2.style.visibility = t > T.dblLine + 0.08 ? "visible" : "hidden";
    });
    const tt = prog(t, T.totalTick, 0.3);
    show(totTick, clamp(tt * 1.5), 0, lerp(0.5, 1, eback(tt)));

    // --- selection box (eases between keyframed cells)
    let ki = 0;
    for (let j = 0; j < SEL.length; j++) if (t >= SEL[j][0]) ki = j;
    const cur = SEL[ki];
    const prev = SEL[Math.max(0, ki - 1)];
    const sp = ki === 0 ? 1 : eio(prog(t, cur[0], 0.16));
    const sx = lerp(colX[prev[1]], colX[cur[1]], sp);
    const sy = lerp(rowY(prev[2]), rowY(cur[2]), sp);
    const sw = lerp(COLW[prev[1]], COLW[cur[1]], sp);
    place(sel, r3(sx - 1), r3(sy - 1), r3(sw + 1), RH + 1);
    sel.style.opacity = t < T.allDone + 0.2 ? "1" : String(r3(1 - prog(t, T.allDone + 0.2, 0.3)));
    colHdrs.forEach((h, i) => h.classList.toggle("on", i === cur[1]));
    rowHdrs.forEach((h, r) => h && h.classList.toggle("on", r === cur[2]));
    namebox.textContent = COLS[cur[1]] + cur[2];
    formula.innerHTML = formulaFor(cur[1], cur[2], t);
    statusbar.textContent = t >= T.totalsIn ? "Sum: " + fmt(totalDr) : "Ready";

    // --- pane: step states
    stepEls.forEach((s, k) => {
      const [a, d] = T.steps[k];
      const active = prog(t, a, 0.2);
      const done = prog(t, d, 0.2);
      s.pend.style.opacity = String(r3(1 - active));
      s.spin.style.opacity = String(r3(active * (1 - done)));
      s.spin.style.transform = `rotate(${r3(((t - a) * 300) % 360)}deg)`;
      s.ok.style.opacity = String(r3(done));
      s.ok.style.transform = `scale(${r3(lerp(0.6, 1, eback(done)))})`;
      const ssP = k === 3 ? 0 : eio(prog(t, d + 0.05, 0.3));
      s.ss.style.opacity = String(r3(ssP));
      s.ss.style.height = r3(16 * ssP) + "px";
      s.root.querySelector(".st").style.color = t < a ? "#7d8a84" : "";
    });

    // step 0 body lines
    s0lines.forEach((l, j) => {
      const p = prog(t, 1.0 + j * 0.55, 0.3);
      l.style.height = r3(22 * eio(p)) + "px";
      show(l, eout(p));
    });
    // step 1 body: progress
    let ncat = 0;
    ACCTS.forEach((_, i) => {
      if (t >= T.chip(i)) ncat = i + 1;
    });
    const barP = clamp(
      ACCTS.reduce((acc, _, i) => acc + eio(prog(t, T.chip(i), 0.3)), 0) / ACCTS.length,
    );
    catBar.style.width = r3(barP * 100) + "%";
    catCount.textContent = `${ncat} of ${ACCTS.length}`;
    if (ncat > 0) {
      const a = ACCTS[ncat - 1];
      catCur.innerHTML = `<span class="k">${a.n}</span> ${a.name} <span class="k">→</span> <span class="chip ${a.cls || ""}">${a.cat}</span>`;
    } else catCur.innerHTML = `<span class="k">Reading account names…</span>`;
    // step 2 body: cards grow in one by one
    cards.forEach((c, k) => {
      const p = eio(prog(t, T.flag(k), 0.45));
      c.w.style.height = r3((c.card.offsetHeight + 8) * p) + "px";
      show(
        c.card,
        eout(prog(t, T.flag(k) + 0.1, 0.4)),
        (1 - eout(prog(t, T.flag(k) + 0.1, 0.4))) * 6,
      );
    });
    // step 3 body: reconciliation cards
    const r1 = eio(prog(t, T.rec1, 0.45));
    rec1w.style.height = r3((rec1w.firstElementChild.offsetHeight + 8) * r1) + "px";
    show(rec1w.firstElementChild, eout(prog(t, T.rec1 + 0.1, 0.4)));
    const r2 = eio(prog(t, T.rec2, 0.45));
    rec2w.style.height = r3((rec2w.firstElementChild.offsetHeight + 8) * r2) + "px";
    show(rec2w.firstElementChild, eout(prog(t, T.rec2 + 0.1, 0.4)));
    reRows.forEach((rw, j) => show(rw, eout(prog(t, T.reLine(j), 0.3))));
    reSgl.style.transform = `scaleX(${r3(eio(prog(t, T.reDbl - 0.15, 0.3)))})`;
    reDbl.style.transform = `scaleX(${r3(eio(prog(t, T.reDbl, 0.4)))})`;
    const k1 = prog(t, T.totalTick, 0.3);
    show(rec1tk, clamp(k1 * 1.5), 0, lerp(0.5, 1, eback(k1)));
    const k2 = prog(t, T.reTick, 0.3);
    show(rec2tk, clamp(k2 * 1.5), 0, lerp(0.5, 1, eback(k2)));

    // step bodies open while active, collapse when done (after children are set, so heights are current)
    stepEls.forEach((s, k) => {
      const [a, d] = T.steps[k];
      // the last step stays open so the reconciliation remains visible
      const open = eio(prog(t, a, 0.35)) * (k === 3 ? 1 : 1 - eio(prog(t, d + 0.15, 0.35)));
      s.sb.style.height = r3(s.sbi.offsetHeight * open) + "px";
      s.sbi.style.opacity = String(r3(open));
    });

    // status pill
    const dn = eio(prog(t, T.allDone, 0.3));
    stWorking.style.opacity = String(r3(1 - dn));
    stDone.style.opacity = String(r3(dn));
    stDot.style.opacity = String(r3(0.45 + 0.55 * (0.5 + 0.5 * Math.cos((2 * Math.PI * t) / 1.6))));

    // --- summary
    const dp = eio(prog(t, T.dim, 0.6));
    dim.style.opacity = String(r3(0.42 * dp));
    dim.style.visibility = dp > 0 ? "visible" : "hidden";
    const cp = eout(prog(t, T.card, 0.6));
    show(summary, cp, (1 - cp) * 24, lerp(0.985, 1, cp));
    sItems.forEach((li, j) =>
      show(li, eout(prog(t, T.item(j), 0.35)), (1 - eout(prog(t, T.item(j), 0.35))) * 4),
    );
    show(ptime, eout(prog(t, T.ptime, 0.4)));
    const sh = eio(prog(t, T.shrink[0], T.shrink[1] - T.shrink[0]));
    const mins = lerp(MANUAL_MIN, REVIEW_MIN, sh);
    tieFill.style.width = r3(lerp(100, (REVIEW_MIN / MANUAL_MIN) * 100, sh)) + "%";
    tieVal.innerHTML = `${hm(mins)} <small style="opacity:${r3(eout(prog(t, T.shrink[1] - 0.2, 0.4)))}">review</small>`;
    const pctV = Math.round(((MANUAL_MIN - mins) / MANUAL_MIN) * 100);
    pct.innerHTML = `${pctV}%<small>less</small>`;
    pct.style.opacity = String(r3(eout(prog(t, T.shrink[0] + 0.1, 0.3))));

    // --- end card
    const ep = eio(prog(t, T.end, 0.6));
    endcard.style.opacity = String(r3(ep));
    endcard.style.visibility = ep > 0 ? "visible" : "hidden";
    const lp = eout(prog(t, T.end + 0.2, 0.7));
    show(lockup, lp, (1 - lp) * 10, lerp(0.97, 1, lp));
    show(tag, eout(prog(t, T.end + 0.6, 0.5)), (1 - eout(prog(t, T.end + 0.6, 0.5))) * 8);
    show(beta, eout(prog(t, T.end + 0.95, 0.5)), (1 - eout(prog(t, T.end + 0.95, 0.5))) * 8);

    // Force layout now so the screenshot sees this exact state.
    void document.body.offsetHeight;
    return t;
  }

  window.renderAt = renderAt;
  window.DEMO = {
    duration: DURATION,
    fps: 30,
    poster: 15.9,
    captions: CAPTIONS.map(([start, end, text]) => ({ start, end, text })),
  };
  renderAt(0);
})();
