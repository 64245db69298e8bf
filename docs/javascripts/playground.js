// The playground page: Scopa against the computer, played by the library in Pyodide.
//
// The page (docs/playground.md, filled in by docs/hooks/playground.py) holds the controls,
// the panels and the settings; this script loads Pyodide, unpacks scopa and attrs (their
// wheels, or their modules compiled), imports the Python side of the page
// (docs/playground/table.py) and draws what its Table returns. It knows no rule of the
// game: the moves, the board, the computer's plays and the scores all come from the
// library. It also exposes the table to other scripts as `window.scopaPlayground` (see
// "Embedding the playground" on the page).
(() => {
  "use strict";

  const root = document.getElementById("scopa-playground");
  if (!root) return;
  const settings = JSON.parse(root.querySelector(".scopa-pg-settings").textContent);
  const form = root.querySelector(".scopa-pg-controls");
  const status = root.querySelector(".scopa-pg-status");
  const board = root.querySelector(".scopa-pg-board");
  const choices = root.querySelector(".scopa-pg-choices");
  const scorePanel = root.querySelector(".scopa-pg-score");
  const log = root.querySelector(".scopa-pg-log");
  const COMPUTER_PAUSE_MS = 450;

  // The page's own words, in English and Italian (the library draws the board and
  // explains the moves in either). A player is `who`: {you: is it the reader, name}.
  const TEXTS = {
    en: {
      loading: (version) => `Loading Python (Pyodide ${version})…`,
      cannotStart: (why) => `The playground could not start: ${why}`,
      askFirst: (version, host) =>
        `The playground runs Python in this page: it loads Pyodide ${version} ` +
        `(about 13 MB) from ${host}. Press Deal to start.`,
      thinking: "The computer is thinking…",
      yourTurn: "Your turn: click a card of your hand.",
      playerTurn: (player) => `Player ${player} to play: click a card.`,
      handOver: "The hand is over.",
      you: "you",
      computer: "the computer",
      player: (player) => `player ${player}`,
      and: "and",
      takes: (card, cards) => `${card} takes ${cards}`,
      lays: (card) => `lays ${card}`,
      declaring: (declaration, points) => `, declaring ${declaration} (${points} points)`,
      claiming: ", claiming the target",
      ways: (card, count) => `${card} can play in ${count} ways:`,
      scoreCaption: "The hand's score (and what each side was judged on)",
      points: "points",
      match: (hand, target, totals) => `Match, hand ${hand}, to ${target}: ${totals}.`,
      brilli: (shares) => ` Brilli: ${shares}.`,
      nextHand: "Next hand",
      secondsLeft: (seconds) => `${seconds} s to play`,
      timeout: (who, winner) =>
        `${capital(who.name)} ran out of time: ${winner.name} won the match.`,
      left: (who, winner) => `${capital(who.name)} left: ${winner.name} won the match.`,
      wonMatch: (winner, won, lost) => `${capital(winner.name)} won the match, ${won} to ${lost}.`,
      wonHand: (winner, won, lost) => `${capital(winner.name)} won the hand, ${won} to ${lost}.`,
      draw: (points) => `A draw, ${points} to ${points}.`,
    },
    it: {
      loading: (version) => `Caricamento di Python (Pyodide ${version})…`,
      cannotStart: (why) => `La pagina di gioco non è partita: ${why}`,
      askFirst: (version, host) =>
        `Questa pagina fa girare Python: carica Pyodide ${version} (circa 13 MB) ` +
        `da ${host}. Premi Distribuisci per cominciare.`,
      thinking: "Il computer sta pensando…",
      yourTurn: "Tocca a te: fai clic su una carta della tua mano.",
      playerTurn: (player) => `Tocca al giocatore ${player}: fai clic su una carta.`,
      handOver: "La mano è finita.",
      you: "tu",
      computer: "il computer",
      player: (player) => `il giocatore ${player}`,
      and: "e",
      takes: (card, cards) => `${card} prende ${cards}`,
      lays: (card) => `cala ${card}`,
      declaring: (declaration, points) => `, dichiarando ${declaration} (${points} punti)`,
      claiming: ", chiamandosi fuori",
      ways: (card, count) => `${card} si può giocare in ${count} modi:`,
      scoreCaption: "Il punteggio della mano (e su che cosa è stato giudicato ciascuno)",
      points: "punti",
      match: (hand, target, totals) => `Partita, mano ${hand}, a ${target}: ${totals}.`,
      brilli: (shares) => ` Brilli: ${shares}.`,
      nextHand: "Mano seguente",
      secondsLeft: (seconds) => `${seconds} s per giocare`,
      timeout: (who, winner) =>
        `Tempo scaduto${who.you ? "" : ` per ${who.name}`}: ` +
        (winner.you ? "hai vinto la partita." : `${winner.name} vince la partita.`),
      left: (who, winner) =>
        `${capital(who.name)} ${who.you ? "hai" : "ha"} lasciato la partita: ` +
        (winner.you ? "hai vinto." : `${winner.name} vince.`),
      wonMatch: (winner, won, lost) =>
        winner.you
          ? `Hai vinto la partita, ${won} a ${lost}.`
          : `${capital(winner.name)} vince la partita, ${won} a ${lost}.`,
      wonHand: (winner, won, lost) =>
        winner.you
          ? `Hai vinto la mano, ${won} a ${lost}.`
          : `${capital(winner.name)} vince la mano, ${won} a ${lost}.`,
      draw: (points) => `Pareggio, ${points} a ${points}.`,
    },
  };
  // The controls' own words in Italian (their English is the page's, read below).
  const CONTROLS_IT = {
    game: "Gioco",
    opponent: "Avversario",
    span: "Si gioca",
    hand: "una mano",
    match: "una partita",
    clock: "l'orologio: 30 s a mossa",
    lang: "Lingua",
    seed: "Seme",
    deal: "Distribuisci",
    greedy: "avido: guarda una mossa avanti (+1,49 punti a mano contro il gioco a caso)",
    search:
      "ricerca: ISMCTS, 1.000 iterazioni a mossa (circa +1,0 a mano contro avido, " +
      "+0,8 contro la rete)",
    policy: "la rete addestrata (+0,57 a mano contro avido)",
  };
  const CONTROLS_EN = {};
  for (const element of form.querySelectorAll("[data-text]")) {
    CONTROLS_EN[element.dataset.text] = element.textContent;
  }
  let lang = navigator.language.toLowerCase().startsWith("it") ? "it" : "en";
  let TEXT = TEXTS[lang];

  // Writes the controls in the page's language.
  function relabel() {
    for (const element of form.querySelectorAll("[data-text]")) {
      const key = element.dataset.text;
      element.textContent = lang === "it" ? CONTROLS_IT[key] : CONTROLS_EN[key];
    }
    root.lang = lang;
    form.elements.lang.value = lang;
  }
  const host = (url) => new URL(url).host;
  const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  const listed = (items) =>
    items.length < 2
      ? items.join("")
      : `${items.slice(0, -1).join(", ")} ${TEXT.and} ${items.at(-1)}`;

  let pyodide = null; // the runtime, once loaded
  let table = null; // the Python Table, once loaded
  let shown = null; // the last view the table returned
  let turnStarted = null; // when the reader's turn began, for the clock
  let ticking = null; // the clock's interval
  let queue = Promise.resolve(); // the calls into Python, one at a time
  let booting = null;
  let loading = null;
  let resolveReady, rejectReady;
  const ready = new Promise((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  ready.catch(() => {}); // reported on the page; a caller awaiting it still sees the error

  const say = (text, kind = "") => {
    status.textContent = text;
    status.dataset.kind = kind;
  };

  // ------------------------------------------------------------------ loading

  const absolute = (url) => new URL(url, document.baseURI).href;
  const siteRoot = new URL(`${settings.siteRoot}/`, document.baseURI);

  // The address on this site of a page the library's explanations cite, such as
  // `rules.md#compulsory-capture`.
  function docsLink(page) {
    const [path, anchor] = page.split("#");
    let target = path.replace(/\.md$/, "");
    const index = target === "index" || target.endsWith("/index");
    if (index) target = target.slice(0, -"index".length);
    if (settings.directoryUrls) target += index ? "" : "/";
    else target += index ? "index.html" : ".html";
    return new URL(target + (anchor ? `#${anchor}` : ""), siteRoot).href;
  }

  function loadScript(url) {
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = url;
      script.onload = resolve;
      script.onerror = () => reject(new Error(`could not load ${url}`));
      document.head.appendChild(script);
    });
  }

  async function fetched(url, kind) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`could not load ${url}: ${response.status}`);
    return kind === "text" ? response.text() : response.arrayBuffer();
  }

  async function start() {
    say(TEXT.loading(settings.version), "busy");
    const indexURL = absolute(settings.indexURL);
    const archives = settings.archives.map((archive) => fetched(absolute(archive.url), "bytes"));
    const source = fetched(absolute(settings.module), "text");
    await loadScript(indexURL + "pyodide.js");
    pyodide = await globalThis.loadPyodide({ indexURL });
    performance.mark("scopa-playground-python");
    if (settings.packages.length) await pyodide.loadPackage(settings.packages);
    const site = pyodide.runPython(
      "import sys; next(path for path in sys.path if path.endswith('site-packages'))",
    );
    const unpacked = await Promise.all(archives);
    settings.archives.forEach((archive, index) => {
      pyodide.unpackArchive(unpacked[index], archive.format, { extractDir: site });
    });
    pyodide.FS.writeFile(`${site}/table.py`, await source);
    pyodide.runPython("import importlib; importlib.invalidate_caches()");
    table = pyodide.pyimport("table").Table();
    table.set_language(lang);
    performance.mark("scopa-playground-library");
  }

  // The runtime, loaded once; the first hand is dealt by `load`.
  function boot() {
    if (!booting) booting = start();
    return booting;
  }

  // Loads the runtime and deals the first hand; `ready` is kept once both are done (a
  // first deal that fails, such as an opponent that cannot play the game chosen, is said
  // on the page and leaves the runtime ready for the next).
  function load() {
    if (!loading) {
      loading = boot()
        .catch((error) => {
          say(TEXT.cannotStart(pythonMessage(error)), "error");
          rejectReady(error);
          throw error;
        })
        .then(() =>
          deal(form).then(
            () => performance.mark("scopa-playground-playable"),
            (error) => say(error.message, "error"),
          ),
        )
        .then(() => resolveReady());
    }
    return loading;
  }

  // ------------------------------------------------------------------ calling Python

  // The library's message of a Python exception: its last line, such as
  // "scopa.errors.IllegalMoveError: illegal move '3S' ...", without the module path.
  function pythonMessage(error) {
    const lines = String(error.message).trim().split("\n");
    return lines[lines.length - 1].replace(/^[\w.]+\.(\w+Error): /, "$1: ");
  }

  // Runs `work(table)` after every call before it, with the runtime loaded.
  function call(work) {
    const next = queue.then(async () => {
      await boot();
      try {
        return work(table);
      } catch (error) {
        throw new Error(pythonMessage(error));
      }
    });
    queue = next.catch(() => {});
    return next;
  }

  // A Python list as a JavaScript array.
  function plain(list) {
    try {
      return list.toJs();
    } finally {
      list.destroy();
    }
  }

  // A call that changes the table: what it returns is drawn.
  const change = (work) => call((python) => show(JSON.parse(work(python))));

  // ------------------------------------------------------------------ drawing

  // A player (a side: the page plays presets for two) as the page names them.
  const name = (player) => {
    if (shown.reader === null) return TEXT.player(player);
    return player === shown.reader ? TEXT.you : TEXT.computer;
  };
  const who = (player) => ({ you: player === shown.reader, name: name(player) });

  // A move in words: `7D takes 1D and 6C`, `lays 3C`.
  function describe(move) {
    let text = move.captured.length
      ? TEXT.takes(move.card, listed(move.captured))
      : TEXT.lays(move.card);
    if (move.declaration) text += TEXT.declaring(move.declaration, move.points);
    if (move.claim) text += TEXT.claiming;
    return text;
  }

  function outcome(end) {
    if (end.kind === "timeout") return TEXT.timeout(who(end.player), who(end.winner));
    if (end.kind === "left") return TEXT.left(who(end.player), who(end.winner));
    if (end.winner === null) return TEXT.draw(end.points[0]);
    const [won, lost] = [end.points[end.winner], end.points[1 - end.winner]];
    const said = end.kind === "match" ? TEXT.wonMatch : TEXT.wonHand;
    return said(who(end.winner), won, lost);
  }

  function show(view) {
    if (shown === null || shown.preset !== view.preset) {
      form.elements.preset.value = view.preset; // a script may have dealt another game
      showClockOption();
    }
    shown = view;
    board.innerHTML = view.svg;
    choices.replaceChildren();
    stopClock();
    turnStarted = null;
    markPlayable(view);
    drawLog(view);
    drawScore(view);
    if (view.outcome) say(outcome(view.outcome), "over");
    else if (view.nextHand) say(TEXT.handOver, "over");
    else if (view.computerToMove) say(TEXT.thinking, "busy");
    else if (view.reader === null) say(TEXT.playerTurn(view.toMove));
    else say(TEXT.yourTurn);
    if (view.clock !== null && !view.computerToMove && view.toMove !== null) startClock(view);
    return view;
  }

  function markPlayable(view) {
    const cards = new Set(view.moves.map((move) => move.card));
    const hand = `g.card[data-where="hand"][data-player="${view.toMove}"]`;
    for (const card of board.querySelectorAll(hand)) {
      if (!cards.has(card.dataset.card)) continue;
      card.classList.add("scopa-pg-playable");
      card.setAttribute("tabindex", "0");
      card.setAttribute("role", "button");
      card.setAttribute("aria-label", `play ${card.dataset.card}`);
      card.addEventListener("click", () => pick(card.dataset.card));
      card.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          pick(card.dataset.card);
        }
      });
    }
  }

  function highlight(captured, on) {
    for (const card of captured) {
      const drawn = board.querySelector(`g.card[data-where="table"][data-card="${card}"]`);
      if (drawn) drawn.classList.toggle("scopa-pg-target", on);
    }
  }

  // The library's explanation: each reason, with a link to the rule it cites.
  function reasons(why) {
    const list = document.createElement("ul");
    list.className = "scopa-pg-reasons";
    for (const reason of why.reasons) {
      const item = document.createElement("li");
      const rule = document.createElement("a");
      rule.href = docsLink(reason.page);
      rule.textContent = reason.title;
      item.append(`${reason.text} (`, rule, ")");
      list.appendChild(item);
    }
    return list;
  }

  // The reader picked a card: play it, or offer its captures when it has several.
  function pick(card) {
    const moves = shown.moves.filter((move) => move.card === card);
    if (moves.length === 1) {
      playByReader(moves[0].text);
      return;
    }
    choices.replaceChildren();
    const heading = document.createElement("p");
    heading.textContent = TEXT.ways(card, moves.length);
    const list = document.createElement("div");
    list.className = "scopa-pg-choice-list";
    // The library's explanation of each capture, asked for now: shown when pointed at.
    const why = document.createElement("div");
    why.className = "scopa-pg-why";
    const explained = new Map(
      moves.map((move) => [
        move.text,
        call((python) => JSON.parse(python.explain(move.text))).catch(() => null),
      ]),
    );
    let pointed = null;
    const explain = async (move) => {
      pointed = move.text;
      const explanation = await explained.get(move.text);
      if (explanation && pointed === move.text) why.replaceChildren(reasons(explanation));
    };
    for (const move of moves) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "md-button scopa-pg-choice";
      button.dataset.move = move.text;
      button.textContent = describe(move);
      const point = (on) => () => {
        highlight(move.captured, on);
        if (on) explain(move);
      };
      button.addEventListener("mouseenter", point(true));
      button.addEventListener("mouseleave", point(false));
      button.addEventListener("focus", point(true));
      button.addEventListener("blur", point(false));
      button.addEventListener("click", () => playByReader(move.text));
      list.appendChild(button);
    }
    for (const drawn of board.querySelectorAll("g.scopa-pg-picked")) {
      drawn.classList.remove("scopa-pg-picked");
    }
    const picked = board.querySelector(`g.scopa-pg-playable[data-card="${card}"]`);
    picked.classList.add("scopa-pg-picked");
    choices.append(heading, list, why);
    list.firstChild.focus();
  }

  // The plays of the hand, each with the library's explanation, the latest one open.
  function drawLog(view) {
    log.replaceChildren();
    view.history.forEach((play, index) => {
      const item = document.createElement("li");
      const details = document.createElement("details");
      details.open = index === view.history.length - 1;
      const summary = document.createElement("summary");
      const who = document.createElement("strong");
      who.textContent = `${capital(name(play.player))}: `;
      summary.append(who, describe(play));
      details.append(summary, reasons(play.why));
      item.appendChild(details);
      log.appendChild(item);
    });
    log.scrollTop = log.scrollHeight;
  }

  function cell(row, text, tag = "td") {
    const element = document.createElement(tag);
    element.textContent = text;
    row.appendChild(element);
    return element;
  }

  function drawScore(view) {
    scorePanel.replaceChildren();
    if (view.score) {
      const caption = document.createElement("caption");
      caption.textContent = TEXT.scoreCaption;
      const scoreTable = document.createElement("table");
      scoreTable.className = "scopa-pg-score-table";
      scoreTable.appendChild(caption);
      const head = scoreTable.createTHead().insertRow();
      cell(head, "", "th");
      view.score.points.forEach((_, side) => cell(head, capital(name(side)), "th"));
      const body = scoreTable.createTBody();
      for (const category of view.score.rows) {
        const row = body.insertRow();
        cell(row, category.name, "th");
        category.points.forEach((points, side) => {
          const figure = category.figures.length ? ` (${category.figures[side]})` : "";
          cell(row, `${points}${figure}`);
        });
      }
      const total = scoreTable.createTFoot().insertRow();
      cell(total, TEXT.points, "th");
      for (const points of view.score.points) cell(total, String(points));
      scorePanel.append(scoreTable, reasons(view.score.why));
    }
    if (view.match) {
      const match = document.createElement("p");
      match.className = "scopa-pg-match";
      const totals = view.match.totals.map((points, side) => `${name(side)} ${points}`);
      match.textContent = TEXT.match(view.match.hand, view.match.target, totals.join(", "));
      if (view.match.brilli) {
        const brilli = view.match.brilli.map((share, side) => `${name(side)} ${share}`);
        match.textContent += TEXT.brilli(brilli.join(", "));
      }
      scorePanel.appendChild(match);
    }
    if (view.nextHand) {
      const next = document.createElement("button");
      next.type = "button";
      next.className = "md-button md-button--primary";
      next.textContent = TEXT.nextHand;
      next.addEventListener("click", () =>
        change((python) => python.next_hand())
          .then(computerTurns)
          .catch((error) => say(error.message, "error")),
      );
      scorePanel.appendChild(next);
    }
  }

  // ------------------------------------------------------------------ the clock

  function startClock(view) {
    turnStarted = performance.now();
    const left = () => view.clock - (performance.now() - turnStarted) / 1000;
    const clock = document.createElement("p");
    clock.className = "scopa-pg-clock-left";
    choices.prepend(clock);
    const tick = () => {
      const seconds = Math.max(0, Math.ceil(left()));
      clock.textContent = TEXT.secondsLeft(seconds);
      if (left() <= 0) {
        stopClock();
        change((python) => python.timeout());
      }
    };
    tick();
    ticking = setInterval(tick, 250);
  }

  function stopClock() {
    if (ticking !== null) clearInterval(ticking);
    ticking = null;
  }

  // ------------------------------------------------------------------ playing

  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // Plays the computer's moves while it is to move; the texts of the moves played.
  async function computerTurns() {
    const played = [];
    while (shown && shown.computerToMove) {
      await pause(COMPUTER_PAUSE_MS);
      const view = await change((python) => python.computer_move());
      played.push(view.last.text);
    }
    return played;
  }

  async function play(text) {
    const elapsed = turnStarted === null ? null : (performance.now() - turnStarted) / 1000;
    const view = await change((python) => python.play(text, elapsed));
    return [view.last ? view.last.text : text, ...(await computerTurns())];
  }

  // A move the reader clicked; a second click before it is played is ignored.
  let playing = false;
  function playByReader(text) {
    if (playing) return;
    playing = true;
    play(text)
      .catch((error) => say(error.message, "error"))
      .finally(() => {
        playing = false;
      });
  }

  function seedOf(controls) {
    const typed = controls.elements.seed.value.trim();
    if (typed !== "") return Number(typed);
    const seed = Math.floor(Math.random() * 2 ** 32);
    controls.elements.seed.placeholder = String(seed);
    return seed;
  }

  function deal(controls) {
    const preset = controls.elements.preset.value;
    const opponent = controls.elements.opponent.value;
    const match = controls.elements.span.value === "match";
    const clock =
      controls.elements.clock.checked && !controls.querySelector(".scopa-pg-clock").hidden;
    const seed = seedOf(controls);
    return change((python) => python.new_game(preset, seed, opponent, match, clock)).then(
      computerTurns,
    );
  }

  function showClockOption() {
    const option = form.elements.preset.selectedOptions[0];
    form.querySelector(".scopa-pg-clock").hidden = !option.hasAttribute("data-clock");
  }

  form.addEventListener("change", (event) => {
    if (event.target.name !== "lang") {
      showClockOption();
      return;
    }
    lang = event.target.value;
    TEXT = TEXTS[lang];
    relabel();
    if (shown !== null) change((python) => python.set_language(lang));
  });
  relabel();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!loading) load().catch(() => {});
    else deal(form).catch((error) => say(error.message, "error"));
  });
  showClockOption();

  // Each method of the API first loads the runtime and deals the first hand, if not done.
  const once = (method) => async (...args) => {
    await load();
    return method(...args);
  };

  globalThis.scopaPlayground = {
    ready,
    load,
    newHand: once((preset, seed) =>
      change((python) => python.new_hand(preset, seed)).then(() => {}),
    ),
    setOpponent: once((opponent, seat = 1) =>
      change((python) => python.set_opponent(opponent, seat))
        .then(computerTurns)
        .then(() => {}),
    ),
    legalMoves: once(() => call((python) => plain(python.legal_moves()))),
    play: once(play),
    handScore: once(() => call((python) => plain(python.hand_score()))),
  };

  if (settings.runtime === "local") {
    load().catch(() => {});
  } else {
    say(TEXT.askFirst(settings.version, host(settings.indexURL)));
  }
})();
