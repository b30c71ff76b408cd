
(function () {
  var here = location.pathname;
  // What the phone keeps is held in memory too, so a browser that keeps nothing (a private
  // window, storage full) still sends the same bytes for a request while the page is open; it is
  // told that its records end with the page.
  var memory = {}, unkept = false;
  var load = function (key) {
    try { var kept = JSON.parse(localStorage.getItem(key) || "null"); if (kept) return kept; } catch (e) {}
    return JSON.parse(JSON.stringify(memory[key] || {}));
  };
  var save = function (key, value) {
    memory[key] = JSON.parse(JSON.stringify(value));
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { unkept = true; }
  };
  var SENT = "grimoire-sent:" + here, FLAGS = "grimoire-flags:" + here, CHOICES = "grimoire-choices:" + here, SEEN = "grimoire-seen:" + here;
  // The choices kept, as long as they have the shape this script writes.
  var keptChoices = function () {
    var kept = load(CHOICES), sound = {};
    if (!kept || typeof kept !== "object" || Array.isArray(kept)) return sound;
    Object.keys(kept).forEach(function (key) {
      var c = kept[key];
      if (c && typeof c === "object" && typeof c.character === "string" && Array.isArray(c.picks)) sound[key] = c;
    });
    return sound;
  };
  var hex = function (bytes) { return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join(""); };
  // The same value whatever order its keys were written in.
  var canon = function (value) {
    if (Array.isArray(value)) return "[" + value.map(canon).join(",") + "]";
    if (value && typeof value === "object") return "{" + Object.keys(value).sort().map(function (k) { return JSON.stringify(k) + ":" + canon(value[k]); }).join(",") + "}";
    return JSON.stringify(value === undefined ? null : value);
  };
  var flag = function (key, words) {
    var flags = load(FLAGS);
    if (flags[key]) return;
    flags[key] = { words: words, at: new Date().toISOString() };
    save(FLAGS, flags);
    drawFlags();
  };
  var drawFlags = function () {
    // A dismissed flag is kept as dismissed, so the next check does not raise it again.
    var flags = load(FLAGS), keys = Object.keys(flags).filter(function (key) { return !flags[key].dismissed; }), box = document.getElementById("rolls-flags");
    box.textContent = "";
    box.hidden = keys.length === 0;
    if (!keys.length) { document.title = document.title.replace(/^\(!\) /, ""); return; }
    if (!/^\(!\) /.test(document.title)) document.title = "(!) " + document.title;
    var title = document.createElement("h2");
    title.textContent = "Your phone found something wrong with the GM's side";
    box.appendChild(title);
    keys.forEach(function (key) {
      var row = document.createElement("p");
      row.className = "flagged";
      row.dataset.flag = key;
      row.textContent = flags[key].words + " ";
      var dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.textContent = "Dismiss";
      dismiss.addEventListener("click", function () { var now = load(FLAGS); if (now[key]) now[key].dismissed = true; save(FLAGS, now); drawFlags(); });
      row.appendChild(dismiss);
      box.appendChild(row);
    });
  };
  // What this phone sends for request r: written down before it is sent, and never changed.
  var recordFor = function (r) {
    var sent = load(SENT), kept = sent[r.request];
    if (kept) return kept;
    kept = { request: r.request, commitment: r.commitment, asked: r.asked, words: r.words, witnessed: r.witnessed === true, contribution: hex(crypto.getRandomValues(new Uint8Array(32))) };
    sent[r.request] = kept;
    save(SENT, sent);
    return kept;
  };
  var said = function (lines, flagged) {
    var list = document.getElementById("rolls-said");
    lines.forEach(function (line) {
      var item = document.createElement("li");
      item.textContent = line;
      if (flagged) item.className = "flagged";
      list.insertBefore(item, list.firstChild);
    });
  };
  var answering = {}, tried = {}, buzzed = {};
  var answer = function (r) {
    if (answering[r.request]) return;
    // A request shown without the command it completes cannot be checked against the log later.
    if (!r.asked || typeof r.asked !== "object" || typeof r.commitment !== "string") {
      flag("unreadable:" + r.request, "Request " + r.request + " was shown to this phone without its command or commitment: it was not answered.");
      return;
    }
    tried[r.request] = true;
    var kept = load(SENT)[r.request];
    // Shown again under another commitment or for another command: the phone answered it once,
    // and never again with other bytes.
    if (kept && (kept.commitment !== r.commitment || canon(kept.asked) !== canon(r.asked) || kept.witnessed !== (r.witnessed === true))) {
      flag("shown-again:" + r.request, "Request " + r.request + " was shown to this phone again, changed (another commitment or another command) after the phone answered it: it was not answered again.");
      return;
    }
    answering[r.request] = true;
    var record = recordFor(r);
    fetch("answer", { method: "POST", cache: "no-store", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "request=" + r.request + "&contribution=" + record.contribution })
      .then(function (reply) { return reply.json().then(function (body) { return { status: reply.status, body: body }; }); })
      .then(function (got) {
        if (got.status === 200) said(got.body.said, false);
        else said(["Request " + r.request + ": " + (got.body.refused || "not taken")], true);
      })
      .catch(function () { said(["Request " + r.request + ": the answer did not arrive; tap Roll again (the same bytes are sent)."], true); })
      .then(function () { answering[r.request] = false; window.grimoireRolls(true); });
  };
  // `afterAnswer`: a witnessed request already tried is not answered again by itself until the
  // log moves (a refused answer would otherwise be sent again and again).
  var draw = function (waiting, afterAnswer) {
    shown = {};
    waiting.forEach(function (r) { shown[r.request] = true; });
    var box = document.getElementById("rolls-waiting");
    box.textContent = "";
    // A roll waiting for a tap cannot be missed: the box stays on screen wherever the player has
    // scrolled, the tab's title says so, and the phone vibrates once for each new one.
    var toTap = waiting.filter(function (r) { return !r.witnessed; });
    box.className = toTap.length ? "asking" : "";
    document.body.classList.toggle("rolls-asking", toTap.length > 0);
    var title = document.title.replace(/^(\(!\) )?\(Roll!\) /, "$1");
    document.title = toTap.length ? (/^\(!\) /.test(title) ? "(!) (Roll!) " + title.slice(4) : "(Roll!) " + title) : title;
    var fresh = toTap.some(function (r) { return !buzzed[r.request]; });
    toTap.forEach(function (r) { buzzed[r.request] = true; });
    if (fresh && navigator.vibrate) { try { navigator.vibrate([200, 100, 200]); } catch (e) {} }
    if (!waiting.length) { var none = document.createElement("p"); none.textContent = "Nothing waits on you."; box.appendChild(none); return; }
    waiting.forEach(function (r) {
      var row = document.createElement("p");
      row.className = "request";
      row.dataset.request = r.request;
      var words = document.createElement("span");
      var again = (r.put_again_after || []).length ? " [put again after request " + r.put_again_after.join(", ") + " was withdrawn or refused]" : "";
      words.textContent = "Request " + r.request + " (#" + r.seq + "): " + r.words + (r.witnessed ? " (the GM's roll; your phone witnesses it)" : "") + again + " ";
      row.appendChild(words);
      if (r.witnessed) { if (!(afterAnswer && tried[r.request])) answer(r); }
      else {
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = "Roll";
        button.addEventListener("click", function () { button.disabled = true; answer(r); });
        row.appendChild(button);
      }
      box.appendChild(row);
    });
  };
  // A choice's words, as the phone made it: "Mira: fires-later".
  var choiceWords = function (kept) {
    return kept.character + ": " + kept.picks.join(", ") + (kept.names ? " (striking " + kept.names + ")" : "");
  };
  // Whether a recorded choice is the one this phone made: the command it records holds the
  // character, the picks in the order sent and whom a pick names, and nothing else (the
  // command's own words for them are the GM's side's; names are compared as the log compares them).
  var sameChoice = function (payload, kept) {
    var given = ((payload || {}).asked || {}).given || {};
    var folded = function (list) { return canon((Array.isArray(list) ? list : [list]).map(function (v) { return String(v).trim().toLowerCase(); })); };
    var recorded = Object.keys(given).map(function (key) { return folded(given[key]); }).sort();
    var mine = [folded([kept.character]), folded(kept.picks)].concat(kept.names ? [folded([kept.names])] : []).sort();
    return canon(recorded) === canon(mine);
  };
  // Every record against the public log: the request as shown, answered with these bytes.
  var checkRecords = function () {
    var sent = load(SENT), requests = Object.keys(sent);
    // Choices the GM's side said it recorded, each at the event it named.
    var choices = keptChoices(), made = Object.keys(choices).filter(function (key) { return choices[key].seq !== undefined; });
    var out = document.getElementById("rolls-receipts");
    if (!requests.length && !made.length) { out.textContent = ""; return; }
    var asked = Date.now();
    // Only the log itself is checked: a busy or trouble page in its place would read as a log
    // that lacks every request.
    fetch("export.jsonl", { cache: "no-store" }).then(function (reply) { if (!reply.ok) throw new Error("" + reply.status); return reply.text(); }).then(function (text) {
      // What the log says of each request, and (as every reader computes it) which were put
      // to a phone right after a roll to it was withdrawn, or answered only to be refused.
      var put = {}, answered = {}, withdrawn = {}, withdrawnFrom = {}, putAgain = {};
      var named = {}, atSeq = {}, twice = {}, head = 0;
      made.forEach(function (key) { named[choices[key].seq] = (named[choices[key].seq] || 0) + 1; });
      text.split("\n").forEach(function (line) {
        if (!line) return;
        try { var row = JSON.parse(line); } catch (e) { return; }
        var p = row.payload || {};
        if (typeof row.seq === "number" && row.seq > head) head = row.seq;
        if (typeof row.seq === "number" && named[row.seq]) {
          if (atSeq[row.seq]) twice[row.seq] = true;
          atSeq[row.seq] = row;
        }
        if (row.kind === "roll_requested") {
          put[p.request] = { seq: row.seq, commitment: p.commitment, asked: p.asked, device: p.device, witnessed: p.witnessed === true };
          if ((withdrawnFrom[p.device] || []).length) putAgain[p.request] = withdrawnFrom[p.device];
          delete withdrawnFrom[p.device];
        } else if (row.kind === "roll_answered") {
          if (answered[p.request] === undefined) {
            answered[p.request] = p.contribution;
            if (put[p.request] && p.refused !== undefined && p.refused !== null) {
              var device = put[p.request].device;
              (withdrawnFrom[device] = withdrawnFrom[device] || []).push(p.request);
              // A roll put to this phone again already, still waiting, was put again after it too.
              Object.keys(put).forEach(function (again) {
                if (Number(again) > p.request && put[again].device === device && answered[again] === undefined && withdrawn[again] === undefined) {
                  (putAgain[again] = putAgain[again] || []).push(p.request);
                }
              });
            }
          }
        } else if (row.kind === "roll_withdrawn" && put[p.request] && answered[p.request] === undefined && withdrawn[p.request] === undefined) {
          withdrawn[p.request] = row.seq;
          (withdrawnFrom[put[p.request].device] = withdrawnFrom[put[p.request].device] || []).push(p.request);
        }
      });
      var waiting = 0;
      requests.forEach(function (request) {
        var kept = sent[request], inLog = put[request];
        if (!inLog) {
          flag("missing:" + request, "Request " + request + ": the log does not hold the request this phone was shown and answered: the GM's side never recorded it, or took it out.");
        } else if (inLog.commitment !== kept.commitment) {
          flag("commitment:" + request, "Request " + request + " (#" + inLog.seq + "): the log holds another commitment than the one this phone was shown: the GM's side showed this phone a request it did not record.");
        } else if (canon(inLog.asked) !== canon(kept.asked)) {
          flag("command:" + request, "Request " + request + " (#" + inLog.seq + "): the log holds another command than the one this phone was shown.");
        } else if (kept.witnessed !== undefined && inLog.witnessed !== kept.witnessed) {
          flag("witnessed:" + request, "Request " + request + " (#" + inLog.seq + "): shown to this phone as " + (kept.witnessed ? "the GM's roll to witness" : "a roll of yours") + ", but the log records it as " + (inLog.witnessed ? "the GM's, witnessed" : "a roll of yours") + ".");
        } else if (withdrawn[request] !== undefined && answered[request] === undefined) {
          flag("withdrawn:" + request, "Request " + request + " (#" + inLog.seq + "): the GM's side withdrew (or never recorded) a roll this phone made, at #" + withdrawn[request] + ".");
        } else if (answered[request] === undefined && !shown[request]) {
          flag("dropped:" + request, "Request " + request + " (#" + inLog.seq + "): the GM's side took it off this phone's list without recording the answer this phone made.");
        } else if (answered[request] === undefined) {
          waiting++;
        } else if (answered[request] !== kept.contribution) {
          flag("bytes:" + request, "Request " + request + " (#" + inLog.seq + "): the log records an answer with bytes this phone never sent.");
        }
      });
      var held = requests.length - waiting;
      // The highest event this phone has seen in the log: a choice made after it is recorded after it.
      var seen = load(SEEN);
      if (!(seen.head >= head)) save(SEEN, { head: head });
      made.forEach(function (key) {
        var kept = choices[key], row = atSeq[kept.seq], at = "#" + kept.seq + ": ";
        if (!(Number.isInteger(kept.seq) && kept.seq > 0)) {
          flag("choice-unnamed:" + key, "Your choice for " + choiceWords(kept) + ": the GM's side said it was recorded, but named no event in the log.");
        } else if (kept.seq <= (kept.after || 0) || named[kept.seq] > 1 || twice[kept.seq]) {
          flag("choice-named:" + key, at + "the GM's side said your choice for " + choiceWords(kept) + " was recorded there, but the log held that event before you made it, or holds it twice.");
        } else if (!row && kept.seq > head) {
          // The GM's side said it was recorded before this look at the log began: it must be there.
          if (kept.named <= asked) flag("choice-missing:" + key, at + "the GM's side said your choice for " + choiceWords(kept) + " was recorded there, but the log it serves ends at #" + head + ".");
          else waiting++;
        } else if (!row || row.kind !== "choice_answered" || !sameChoice(row.payload, kept)) {
          flag("choice:" + key, at + "the log records another choice than the one this phone made (" + choiceWords(kept) + ").");
        } else {
          held++;
        }
      });
      var marks = requests.filter(function (request) { return putAgain[request]; }).map(function (request) {
        return "request " + request + " was put again after request " + putAgain[request].join(", ") + " was withdrawn or refused";
      });
      var raised = load(FLAGS), flags = Object.keys(raised).filter(function (key) { return !raised[key].dismissed; }).length;
      out.className = flags ? "flagged" : "";
      out.textContent = (flags
        ? "This phone raised " + flags + (flags === 1 ? " flag" : " flags") + " (at the top of the page). "
        : "The log holds every roll and choice this phone made as it was shown (" + held + "). ") +
        (waiting ? waiting + " sent, not yet in the log. " : "") +
        (marks.length ? "Marked: " + marks.join("; ") + "." : "") +
        (unkept ? " This browser keeps nothing past this page (a private window, or its storage is full): keep the page open until your rolls are in the log." : "");
    }).catch(function () {
      out.className = "flagged";
      out.textContent = "The public log could not be fetched, so this phone could not check its " + (requests.length + made.length) + " records against it; it tries again when the log moves.";
    });
  };
  // Asked while a look is under way, the list is looked at again once it ends (the log may have
  // moved since that look began); a busy server's refusal is asked again a moment later.
  var busy = false, again = null, shown = {};
  window.grimoireRolls = function (afterAnswer) {
    if (busy) { again = afterAnswer === true || again === true; return; }
    busy = true;
    var retry = false;
    fetch("rolls", { cache: "no-store" }).then(function (reply) {
      if (reply.status === 404) { document.getElementById("link-gone").hidden = false; throw new Error("gone"); }
      if (!reply.ok) { retry = true; throw new Error("" + reply.status); }
      return reply.json();
    }).then(function (body) { draw(body.waiting, afterAnswer === true); checkRecords(); }).catch(function () {}).then(function () {
      busy = false;
      if (again !== null) { var next = again; again = null; window.grimoireRolls(next); }
      else if (retry) setTimeout(function () { window.grimoireRolls(afterAnswer); }, 1000);
    });
  };
  // A choice the rules left to the player (#47): sent as the page's form, as theirs; what was
  // recorded (or why not) is said under it, and the page is drawn again as the log moves. The
  // phone writes the choice down before it is sent, with the event the GM's side says it
  // recorded it as, and finds it there in the public log, as it does its rolls.
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.classList || !form.classList.contains("choice")) return;
    e.preventDefault();
    var said = form.querySelector(".choice-said");
    var button = form.querySelector("button");
    button.disabled = true;
    said.textContent = "Sending…";
    var data = new FormData(form), choices = keptChoices();
    var key = new Date().toISOString() + ":" + Object.keys(choices).length;
    // Made after every event this phone has seen in the log (or its page showed).
    var after = Math.max(Number(load(SEEN).head) || 0, Number(document.body.dataset.head) || 0);
    choices[key] = { character: String(data.get("character") || ""), picks: data.getAll("pick").map(String), names: String(data.get("names") || "").trim(), after: after };
    save(CHOICES, choices);
    fetch("choose", { method: "POST", cache: "no-store", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(data).toString() })
      // A refusal by the server's guards is plain text, a busy server's a page: said as it came.
      .then(function (reply) { return reply.text().then(function (text) {
        try { return { status: reply.status, body: JSON.parse(text) }; }
        catch (e) { return { status: reply.status, body: { refused: reply.status + ": " + (text.indexOf("<") >= 0 ? "the server is busy; choose again in a moment" : text.trim()) } }; }
      }); })
      .then(function (got) {
        var body = got.body && typeof got.body === "object" ? got.body : {};
        var lines = got.status === 200 && Array.isArray(body.said) ? body.said.map(String) : [];
        var now = keptChoices();
        // Said to be recorded: the event named first is where the log must hold it, from now
        // on. Refused: nothing to find (the form stays while the choice waits).
        if (now[key]) {
          if (got.status === 200) {
            var at = /^#(\d{1,15}) /.exec(lines[0] || "");
            now[key].seq = at ? Number(at[1]) : 0;
            now[key].named = Date.now();
          } else delete now[key];
          save(CHOICES, now);
        }
        said.textContent = got.status === 200 ? "Recorded: " + lines.join("; ") : "Not taken: " + (body.refused || "the server said no");
        // Kept under the rolls too: the form goes once the log moves past the choice.
        lines.forEach(function (line) {
          var item = document.createElement("li");
          item.textContent = line;
          document.getElementById("rolls-said").appendChild(item);
        });
        checkRecords();
      })
      // Whether it was recorded is not known, so there is nothing to find in the log.
      .catch(function () { var now = keptChoices(); delete now[key]; save(CHOICES, now); said.textContent = "The choice did not arrive; choose again."; })
      .then(function () { button.disabled = false; });
  });
  drawFlags();
  window.grimoireRolls();
})();
