  function rolledAfterRetraction(rows) {
    const newestRetraction = {};
    for (const row of rows) {
      if (row.kind === "retracted") {
        const target = String(row.payload.seq);
        newestRetraction[target] = Math.max(newestRetraction[target] || 0, Number(row.seq));
      }
    }
    const marked = {};
    const mark = (seq, after) => {
      const list = marked[seq] || (marked[seq] = []);
      for (const a of after) if (!list.includes(a)) list.push(a);
      list.sort((x, y) => x - y);
    };
    // Which stretch of play a row is in: a session, or the time after the last one started.
    let started = 0, open = false;
    let spans = [], awaiting = [];
    const rolled = new Set();
    for (const row of rows) {
      const seq = Number(row.seq);
      const span = `${started}:${open}`;
      const rolls = diceOf(row.kind, row.payload).length > 0;
      spans = spans.filter((s) => s.until > seq);
      if (rolls) {
        const after = spans.filter((s) => s.span === span).map((s) => s.roll);
        if (after.length) mark(row.seq, after);
        if (awaiting.length) { mark(row.seq, awaiting); awaiting = []; }
        if (newestRetraction[row.seq] !== undefined) {
          spans.push({ roll: seq, span, until: newestRetraction[row.seq] });
          rolled.add(seq);
        }
      }
      if (row.kind === "session_started") { started = Math.max(started, Number(row.payload.number)); open = true; }
      else if (row.kind === "session_ended") open = false;
      else if (row.kind === "retracted" && rolled.has(Number(row.payload.seq))) awaiting.push(Number(row.payload.seq));
    }
    return marked;
  }

  /** One roll in words: where its dice came from and what the published seed gives. */
  function explain(result, seq) {
    const row = result.rows.find((r) => r.seq === String(seq));
    if (!row) return `The log holds no event #${seq}.`;
    const dice = diceOf(row.kind, row.payload);
    const checked = result.rolls[row.seq] || [];
    const field = (name) => { try { return JSON.parse(row.raw[name]); } catch (e) { return null; } };
    const session = field("session");
    const lines = [
      dice.length === 0 ? `#${seq} (${row.kind}) rolled no dice.`
        : `#${seq} (${row.kind}) rolled ${dice.length} ${dice.length === 1 ? "die" : "dice"}:`,
      `  recorded ${field("recorded_at")} by ${field("actor")}, ${session === null ? "outside any session" : `in session ${session}`}`,
    ];
    const derived = result.derivations[row.seq] || [];
    for (const die of dice) {
      const source = die.provenance.source;
      const check = checked.find((c) => c.n === die.n);
      const opened = (result.opened[row.seq] || []).find((o) => o.n === die.n);
      let words;
      if (source === "entered") words = "typed in at the table (a physical die: nothing to derive)";
      else if (source === "device" && check) words = `${check.witnessed ? "the GM's roll, witnessed by a player's device" : "rolled on a player's device"} (request ${check.request}): the published secret and the device's bytes give ${check.deviceGives}${check.deviceGives === check.shows ? ", as recorded" : `, but it is recorded as ${check.shows}`}`;
      else if (source === "device") words = `made on a player's device for request ${die.provenance.request}, whose answer the log does not hold before it`;
      else if (source === "sealed" && !opened) words = (originOf(die) || {}).source === "seeded"
        ? "sealed: rolled by grimoire from a seed its epoch committed to, and only a commitment until it is revealed"
        : "sealed by the GM: only a commitment until it is revealed";
      else if (source === "sealed" && !opened.committed) words = `sealed, and revealed as ${opened.faces}, which does NOT open its commitment`;
      else if (source === "sealed" && !check) words = `sealed, revealed as ${opened.faces}, which opens its commitment (${(originOf(die) || {}).source === "seeded" ? `its epoch's seed${(result.sealedSeedEpochs || []).includes(Number(originOf(die).epoch)) ? " for sealed dice" : ""} is not published yet` : "typed by the GM, so it proves nothing of fairness"})`;
      else if (!check) words = "seeded by grimoire; its epoch's seed is not published yet, so it cannot be checked yet";
      else words = check.shows === check.seedGives || String(check.shows) === String(check.seedGives)
        ? `the published seed gives ${check.seedGives}, as recorded`
        : `recorded as ${check.shows}, but the published seed gives ${check.seedGives}`;
      const purpose = die.purpose ? ` for ${JSON.stringify(String(die.purpose))}` : "";
      const face = die.value === undefined || die.value === null ? "" : `, shows ${die.value}`;
      lines.push(`  die ${die.n}, a d${die.sides}${purpose}${face}: ${words}`);
      const how = derived.find((d) => d.n === die.n);
      if (how) {
        const entropy = how.entropy === ""
          ? "with no player entropy (the GM, who holds the seed, could have foreseen it)"
          : how.by !== undefined ? `with entropy given by ${how.by} for this command: "${how.entropy}"`
          : `with the session's player entropy "${how.entropy}"`;
        lines.push(`    seeded from epoch ${how.epoch}'s seed${how.roll === undefined ? "" : `, roll ${how.roll} of the epoch`}, ${entropy}`);
        lines.push(`    its face: HMAC-SHA256(seed, "${how.message}") as README's derivation reads it`);
      }
    }
    const after = rolledAfterRetraction(result.rows)[row.seq];
    if (after !== undefined) {
      const seqs = after.map((a) => `#${a}`).join(", ");
      lines.push(`  rolled after ${seqs}, which rolled dice and ${after.length === 1 ? "was" : "were"} retracted: made in its session before the retraction, or first after it (a table may have fixed a slip, or tried for another die)`);
    }
    const retracted = result.rows.find((r) => r.kind === "retracted" && String(r.payload.seq) === row.seq);
    if (retracted) lines.push(`  retracted by #${retracted.seq}: ${retracted.payload.reason}`);
    const laterAmendment = result.rows.find((r) => r.kind === "amended" && String(r.payload.seq) === row.seq);
    if (laterAmendment) lines.push(`  amended by #${laterAmendment.seq} with the same dice: ${laterAmendment.payload.changed.join(", ")}`);
    return lines.join("\n");
  }

  /**
   * What this browser saw of the campaign before, against the log it is shown now. `storage` keeps,
   * per campaign, the first 16 hex digits of every event's hash as last seen (a hundred thousand
   * events fit). Only a log whose chain holds is remembered; a page written of an earlier point
   * (`asOf`) is compared but never remembered, and being shorter is no loss there. A log that does not extend what was seen (an event changed, or
   * events dropped from its end) is named at the first event that differs, and what was seen is
   * kept as the evidence; a log that extends it is remembered instead. `now` labels the record.
   */
  function witness(result, storage, now, asOf) {
    const first = result.rows[0];
    if (!first || first.kind !== "campaign_created") return { state: "no campaign" };
    const width = 16;
    const key = `grimoire-witness:${first.payload.campaign_id}`;
    let seen = null;
    try { seen = JSON.parse(storage.getItem(key) || "null"); } catch (e) { seen = null; }
    const prefixes = result.rows.map((row) => row.hash.slice(0, width)).join("");
    const seenUpTo = seen && typeof seen.prefixes === "string" && seen.width === width ? seen.prefixes.length / width : 0;
    for (let i = 0; i < Math.min(seenUpTo, result.rows.length); i++) {
      if (seen.prefixes.substr(width * i, width) !== prefixes.substr(width * i, width)) {
        return { state: "rewritten", seq: i + 1, seenAt: seen.at, seenUpTo };
      }
    }
    if (result.rows.length < seenUpTo) {
      return asOf
        ? { state: "earlier", seenUpTo, seenAt: seen.at }
        : { state: "cut", seq: result.rows.length + 1, seenAt: seen.at, seenUpTo };
    }
    if (asOf || result.chainBreak !== null) return { state: seenUpTo ? "extends" : "unremembered", seenUpTo };
    try { storage.setItem(key, JSON.stringify({ at: now, width, prefixes })); } catch (e) { return { state: "unkept", seenUpTo }; }
    return { state: seenUpTo ? "extends" : "first", seenUpTo };
  }

  /** SHA-256 against FIPS 180 examples, HMAC against RFC 4231 cases 1, 2 and 6. */
  function selfTest() {
    const cases = [
      [hex(sha256(utf8("abc"))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
      [hex(sha256(utf8(""))), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
      [hex(sha256(utf8("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"],
      [hex(hmac(new Uint8Array(20).fill(0x0b), utf8("Hi There"))), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"],
      [hex(hmac(utf8("Jefe"), utf8("what do ya want for nothing?"))), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"],
      [hex(hmac(new Uint8Array(131).fill(0xaa), utf8("Test Using Larger Than Block-Size Key - Hash Key First"))), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"],
    ];
    return cases.every(([got, want]) => got === want);
  }

  /** The C-2 marks of a verified log: seq → the retracted rolls it was made after. */
  const rerollMarks = (result) => rolledAfterRetraction(result.rows);

  return { sha256, hmac, hex, utf8, verify, explain, witness, selfTest, seededFace, dieMessage, rerollMarks };
})();
