
function grimoireCheckLog(exported) {
  var out = function (id, text) { document.getElementById(id).textContent = text; };
  try {
    check(out, exported);
  } catch (e) {
    out("check-verdict", "The check FAILS: this page's log could not be checked (" + e.message + ").");
    out("check-result", JSON.stringify({ all_hold: false, error: String(e.message) }));
  }
}
// A served page fetches the log it checks (again after each update); a saved one carries it.
function grimoireCheckServed() {
  fetch(GRIMOIRE_EXPORT_URL, { cache: "no-store" }).then(function (answer) {
    if (!answer.ok) throw new Error("the server answered " + answer.status);
    return answer.text();
  }).then(grimoireCheckLog, function (e) {
    document.getElementById("check-verdict").textContent =
      "The log could not be fetched to check it (" + e.message + ").";
  });
}
if (typeof GRIMOIRE_EXPORT === "string") grimoireCheckLog(GRIMOIRE_EXPORT); else grimoireCheckServed();
function check(out, exported) {
  var result = GrimoireCheck.verify(exported);
  var selfTest = GrimoireCheck.selfTest();
  var summary = {
    self_test: selfTest, all_hold: result.allHold && selfTest, events: result.events,
    chain_break: result.chainBreak, first_problem: result.firstProblem, problems: result.problems,
    seeded_dice_checked: result.seededChecked, seeded_dice_awaiting_reveal: result.seededAwaiting,
    sealed_dice_checked: result.sealedChecked, sealed_dice_awaiting_reveal: result.sealedAwaiting,
    device_dice_checked: result.deviceChecked, witnessed_dice_checked: result.witnessedChecked,
    device_dice_in_rules_commands: result.deviceInRules,
    rolls_put_again: result.putAgain, head: result.head
  };
  if (!selfTest) {
    out("check-verdict", "This browser computes SHA-256 or HMAC wrongly: nothing here can be trusted.");
  } else if (result.allHold) {
    var count = function (n, one, many) { return n + " " + (n === 1 ? one : many); };
    out("check-verdict", "All checks hold: " + count(result.events, "event", "events") +
      " chained from the first to #" + result.head.split(":")[0] + ", " +
      count(result.seededChecked, "seeded die", "seeded dice") + " re-derived, " +
      count(result.sealedChecked, "sealed die", "sealed dice") + " opened" +
      (result.deviceChecked + result.witnessedChecked > 0
        ? ", " + count(result.deviceChecked, "die rolled on a player's device", "dice rolled on players' devices") +
          " and " + count(result.witnessedChecked, "die of the GM's witnessed", "dice of the GM's witnessed") + " re-derived" +
          (result.deviceInRules > 0 ? " (" + result.deviceInRules + " of them drawn by rule-system commands: this page does not run the rules, so which of a phone's dice each rule took is checked only by `grimoire verify`, which decides those commands again)" : "")
        : "") + "; " +
      (result.seededAwaiting + result.sealedAwaiting === 1 ? "1 die awaits its seed or its reveal."
        : (result.seededAwaiting + result.sealedAwaiting) + " dice await their seed or their reveal.") +
      (result.putAgain > 0 ? " " + count(result.putAgain, "roll was", "rolls were") + " put to a phone again right after a roll to it was withdrawn or refused." : ""));
  } else {
    out("check-verdict", "The check FAILS: " +
      (result.chainBreak ? result.chainBreak.what : result.problems.length + " problem(s) with the dice") + ".");
  }
  var storage = null;
  try { storage = window.localStorage; } catch (e) { storage = null; }
  var seen = storage ? GrimoireCheck.witness(result, storage, new Date().toISOString(), GRIMOIRE_AS_OF) : { state: "unkept" };
  summary.witness = seen;
  out("check-result", JSON.stringify(summary));
  if (seen.state === "rewritten") {
    out("check-witness", "WARNING: this is not the log this browser saw on " + seen.seenAt + ": event #" +
      seen.seq + " differs from the one it saw then. History was rewritten from there.");
  } else if (seen.state === "cut") {
    out("check-witness", "WARNING: this browser saw this campaign up to #" + seen.seenUpTo + " on " +
      seen.seenAt + ", but this log ends before #" + seen.seq + ": events were dropped from its end.");
  } else if (seen.state === "extends") {
    out("check-witness", "It extends the log this browser saw before (up to #" + seen.seenUpTo + "): nothing it saw was changed.");
  } else if (seen.state === "earlier") {
    out("check-witness", "This page shows the campaign as of an earlier point; everything in it matches the log this browser saw up to #" + seen.seenUpTo + ".");
  } else if (seen.state === "unremembered") {
    out("check-witness", "This browser keeps no log that fails its check, nor a page of an earlier point: it has nothing to compare this with yet.");
  } else if (seen.state === "first") {
    out("check-witness", "This browser has not seen this campaign before; it remembers this log now, and will say if a later one does not extend it.");
  } else {
    out("check-witness", "This browser keeps nothing for pages opened this way, so it cannot compare with what it saw before.");
  }
  var list = document.getElementById("check-problems");
  list.textContent = "";
  result.problems.slice(0, 20).forEach(function (p) {
    var item = document.createElement("li");
    item.textContent = p.what;
    list.appendChild(item);
  });
  // Assigned, not added: a served page checks again after each update, and answers once.
  document.getElementById("check-checkpoint-go").onclick = function () {
    var code = document.getElementById("check-checkpoint").value;
    var found = GrimoireCheck.verify(exported, [code]).checkpoints[0];
    out("check-checkpoint-said", found.holds
      ? "It holds: the log still has exactly that event at that place."
      : "It does NOT hold: " + found.why + " (or the code was noted wrongly: compare it digit by digit).");
  };
  document.getElementById("check-explain-go").onclick = function () {
    out("check-explained", GrimoireCheck.explain(result, document.getElementById("check-seq").value.replace("#", "").trim()));
  };
  var asked = new URLSearchParams(location.search).get("explain");
  if (asked) {
    out("check-explained", GrimoireCheck.explain(result, asked));
    // Followed from a log line, the explanation is what the reader came for: brought into view
    // once, not at every later check of a served page.
    if (!window.grimoireExplainShown) {
      window.grimoireExplainShown = true;
      document.getElementById("check-explained").scrollIntoView();
    }
  }
}
