  // A free roll's total from its faces, term by term as its expression (as the log writes it:
  // d6, 2d6, d100oe, constants, each after + or -) adds them; null when the faces do not fit.
  // An open-ended d100 rolls on after 96-100, and an opening 01-05 subtracts the chain after it.
  function addedUp(expression, faces) {
    const read = readRoll(expression, faces);
    return read === null ? null : read.total;
  }
  // The dice a sealed roll of `expression` holds, as grimoire reads it: `sealed`, their sides in
  // order (its terms as `exprTerms` reads them), an open-ended term's chain one die of 100 sealed
  // whole; `each`, the sizes of die it rolls, which is all an older grimoire's dice (sealed a die
  // a face) are held to when it has an open-ended term; null when it is not an expression.
  function dieSizes(expression) {
    const terms = exprTerms(expression);
    if (terms === null) return null;
    const sizes = { sealed: [], each: [], openEnded: false };
    for (const term of terms.match(/[+-][^+-]+/g) || []) {
      const body = term.slice(1);
      if (body === "oe") {
        sizes.openEnded = true;
        sizes.each.push(100);
        sizes.sealed.push(100);
      } else if (body.includes("d")) {
        const [count, size] = body.split("d").map(Number);
        sizes.each.push(size);
        for (let k = 0; k < count; k++) sizes.sealed.push(size);
      }
    }
    return sizes;
  }
  // The total, and the sides of the die behind each face, as `addedUp` reads them; null when the
  // faces do not fit the expression.
  function readRoll(expression, faces) {
    // Read as grimoire reads an expression: any case, spaces left out (Unicode's, as Rust's
    // `is_whitespace` reads them: \s has a character more and one less), d% a d100, oe open-ended.
    const text = String(expression).replace(/\p{White_Space}/gu, "").toLowerCase();
    const terms = text.match(/[+-]?[^+-]+/g) || [];
    let total = 0;
    let next = 0;
    const sides = [];
    let size = 0;
    const take = () => {
      if (next >= faces.length) return null;
      sides.push(size);
      return faces[next++];
    };
    for (const raw of terms) {
      const sign = raw[0] === "-" ? -1 : 1;
      const term = raw.replace(/^[+-]/, "");
      let value = 0;
      if (term === "d100oe" || term === "oe") {
        size = 100;
        const chain = [];
        const goesOn = () => chain.length === 0
          || (chain.length === 1 ? chain[0] >= 96 || chain[0] <= 5 : chain[chain.length - 1] >= 96);
        while (goesOn()) {
          const face = take();
          if (face === null) return null;
          chain.push(face);
        }
        const low = chain[0] <= 5 ? -1 : 1;
        value = chain.slice(1).reduce((sum, face) => sum + low * face, chain[0]);
      } else if (/^[0-9]*d([0-9]+|%)$/.test(term)) {
        const count = term[0] === "d" ? 1 : Number(term.split("d")[0]);
        size = term.endsWith("%") ? 100 : Number(term.split("d")[1]);
        for (let k = 0; k < count; k++) {
          const face = take();
          if (face === null) return null;
          value += face;
        }
      } else if (/^[0-9]+$/.test(term)) {
        value = Number(term);
      } else {
        return null;
      }
      total += sign * value;
    }
    return next === faces.length ? { total, sides } : null;
  }

  function seededFace(seed, message, sides) {
    // No face to give (a forged die's sides): said at once, not after a thousand blocks.
    if (!Number.isSafeInteger(sides) || sides < 1 || sides > 2 ** 32) return null;
    const limit = 2 ** 32 - (2 ** 32 % sides);
    // Eight words rejected in a row happens about once in 2^256 for any die: a thousand blocks is
    // past all chance, and keeps a forged `sides` from looping for ever.
    for (let block = 0; block < 1000; block++) {
      const digest = new DataView(hmac(seed, utf8(message.replace("{BLOCK}", String(block)))).buffer);
      for (let i = 0; i < 32; i += 4) {
        const word = digest.getUint32(i);
        if (word < limit) return (word % sides) + 1;
      }
    }
    return null;
  }

  /** The derivation message of die `n` (a further face of a sealed chain is `n/k`). */
  function dieMessage(campaignId, epoch, die, seq, n, entropy) {
    const roll = die.provenance.roll ?? null;
    const [version, place] = roll === null ? [1, seq] : [2, roll];
    return `grimoire-die-v${version}|${campaignId}|${epoch}|${place}|${n}|{BLOCK}|${entropy}`;
  }

  const isFields = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
  // A die's provenance as grimoire reads it: only the fields its source has. A seeded die's
  // witness; a sealed die's origin, and that origin's witness when it is seeded. A field another
  // source would have is passed over, as grimoire passes it over (a forged witness on a sealed
  // die must not change what the page derives).
  /** A sealed die's origin, or null. */
  const originOf = (die) => (die.provenance.source === "sealed" && isFields(die.provenance.origin) ? die.provenance.origin : null);
  /** Where a die derived from an epoch's seed says so (the seeded provenance, or a sealed die's
   * seeded origin), or null. */
  const seededPartOf = (die) => {
    if (die.provenance.source === "seeded") return die.provenance;
    const origin = originOf(die);
    return origin !== null && origin.source === "seeded" ? origin : null;
  };
  /** The witness whose entropy a seeded die was derived with, or null (the session's). */
  const witnessOf = (die) => {
    const seeded = seededPartOf(die);
    return seeded !== null && isFields(seeded.witness) ? seeded.witness : null;
  };
  // A die as grimoire reads one, field by field, or the row cannot be read: a die this check
  // read otherwise (a source it does not know, a face that is not a number) would go unchecked
  // here while grimoire refuses it.
  const isU32 = (value) => Number.isSafeInteger(value) && value >= 0 && value <= 0xffffffff;
  const isU64 = (value) => Number.isInteger(value) && value >= 0 && value < 2 ** 64;
  const isText = (value) => typeof value === "string";
  const isNone = (value) => value === undefined || value === null;
  const isWitness = (w) => isFields(w) && isText(w.entropy) && isText(w.by);
  const isSeededPart = (p) => isU32(p.epoch) && (isNone(p.roll) || isU64(p.roll)) && (isNone(p.witness) || isWitness(p.witness));
  const isOrigin = (o) => isFields(o) && (o.source === "entered" || (o.source === "seeded" && isSeededPart(o)));
  const isProvenance = (p) => isFields(p) && (p.source === "entered"
    || (p.source === "seeded" && isSeededPart(p))
    || (p.source === "device" && isU32(p.request) && (p.witnessed === undefined || typeof p.witnessed === "boolean"))
    || (p.source === "sealed" && isText(p.commitment) && (isNone(p.origin) || isOrigin(p.origin))));
  const isDie = (die) => isFields(die) && isU32(die.n) && isText(die.purpose) && isU32(die.sides)
    && (isNone(die.value) || isU32(die.value)) && isProvenance(die.provenance);
  /** A sealed die's opening as grimoire reads one. */
  const isOpening = (o) => isFields(o) && isU32(o.n) && isU32(o.value) && isText(o.nonce)
    && (o.then === undefined || (Array.isArray(o.then) && o.then.every(isU32)));

  // The kinds whose payload has a `dice` field as grimoire reads them (its list, given with the
  // script): a sealed roll's reveal holds its openings there, every other such kind its dice.
  const DICE_KINDS = new Set(GRIMOIRE_DICE_KINDS);
  /** The dice an event holds: in its payload's `dice`, in the kinds that have them (a reveal's are
   * openings, not dice; an amendment's are in the event it carries). */
  function diceOf(kind, payload) {
    if (kind === "sealed_revealed" || !DICE_KINDS.has(kind)) return [];
    return Array.isArray(payload.dice) ? payload.dice : [];
  }
  /** Why grimoire cannot read what this check reads of a payload of `kind`, if it cannot: each
   * die (or a reveal's opening), the command a phone is asked for and the event an amendment
   * carries are groups of fields, never a list of their values. */
  // The other fields this check reads, typed as grimoire reads them ("text", a whole number up to
  // 2^32 - 1, each "?" where it may be absent or null): a row where one is not is one grimoire
  // cannot read, and names first.
  const READ_FIELDS = new Map([
    ["campaign_created", [["campaign_id", "text"], ["seed_commitment", "text"], ["derivation", "u32?"], ["sealed_commitment", "text?"]]],
    ["epoch_started", [["seed_commitment", "text"], ["derivation", "u32?"], ["sealed_commitment", "text?"]]],
    ["session_started", [["number", "u32"], ["entropy", "text"]]],
    ["seed_revealed", [["seed", "text"]]], ["sealed_seed_revealed", [["seed", "text"]]],
    // A phone's request, answer and withdrawal (C-5): `witnessed` may be left out, not null.
    ["roll_requested", [["request", "u32"], ["device", "u32"], ["commitment", "text"], ["witnessed", "bool-"]]],
    ["roll_answered", [["request", "u32"], ["contribution", "text"], ["secret", "text"], ["refused", "text?"]]],
    ["roll_withdrawn", [["request", "u32"]]],
  ]);
  const isOfType = (value, type) => (type.endsWith("?") && isNone(value))
    || (type.endsWith("-") && value === undefined)
    || (type.startsWith("text") ? isText(value) : type.startsWith("bool") ? typeof value === "boolean" : isU32(value));
  const typeWords = (type) => (type.startsWith("text") ? "a text" : type.startsWith("bool") ? "true or false" : "a whole number");
  function fieldsProblem(kind, payload) {
    for (const [field, type] of READ_FIELDS.get(kind) || []) {
      if (!isOfType(payload[field], type)) {
        return `its payload cannot be read: its "${field}" is not ${typeWords(type)}`;
      }
    }
    if ((kind === "roll_requested" || kind === "choice_answered")
      && !(isFields(payload.asked) && (payload.asked.command !== "system" || isFields(payload.asked.given)))) {
      return "its payload cannot be read: the command it asks for is not written as a group of fields";
    }
    // A free roll's expression, and one a phone is asked to roll, read as grimoire reads them.
    const rolled = kind === "dice_rolled" ? payload
      : (kind === "roll_requested" || kind === "choice_answered") && payload.asked.command === "roll" ? payload.asked : null;
    if (rolled !== null && exprTerms(rolled.expression) === null) {
      return "its payload cannot be read: its dice expression is not one grimoire reads";
    }
    if (kind === "amended" && payload.event !== undefined) {
      return isFields(payload.event) ? fieldsProblem(payload.event.kind, payload.event)
        : "its payload cannot be read: the event it carries is not written as a group of fields";
    }
    // A reveal's openings are not optional; a kind's dice may be absent where it has none.
    if (!DICE_KINDS.has(kind) || (payload.dice === undefined && kind !== "sealed_revealed")) return null;
    const readable = kind === "sealed_revealed" ? isOpening : isDie;
    return Array.isArray(payload.dice) && payload.dice.every(readable) ? null
      : "its payload cannot be read: a die is not written as grimoire writes one (a group of fields of the types it reads)";
  }
  /** A die as grimoire compares two, its purpose aside: its number, sides, value (absent and
   * null alike) and the fields of its provenance's source, however the JSON is written. */
  const dieAsRead = (die) => {
    const witness = (w) => (isFields(w) ? [w.entropy, w.by] : null);
    const seeded = (p) => ["seeded", p.epoch, p.roll ?? null, witness(p.witness)];
    const p = die.provenance;
    const origin = originOf(die);
    const provenance = p.source === "seeded" ? seeded(p)
      : p.source === "device" ? ["device", p.request, p.witnessed === true]
      : p.source === "sealed" ? ["sealed", p.commitment, origin === null ? null : origin.source === "seeded" ? seeded(origin) : [origin.source]]
      : [p.source];
    return [die.n, die.sides, die.value ?? null, provenance];
  };
  /** Whether two lists of dice are the same dice as grimoire reads them, purposes aside. */
  const sameDice = (a, b) => JSON.stringify(a.map(dieAsRead)) === JSON.stringify(b.map(dieAsRead));

  // The first payload version whose rolls put to a phone must act for a character its player
  // plays (README, C-5); earlier requests are judged as the grimoire that wrote them judged them.
  const ACTING_RULE_SINCE = 3;
  // The first payload version every grimoire writing it sealed an open-ended chain whole.
  const SEALED_WHOLE_SINCE = 3;
  // The first payload version every grimoire writing it refused to amend a roll a device made.
  const ANSWERED_ROLL_FINAL_SINCE = 3;
  // "system path" -> the argument naming who acts, for every command that has one (grimoire's own
  // table, given with the script).
  const ACTING_ARGUMENT = GRIMOIRE_ACTING;
  const foldName = (name) => rustTrim(String(name)).toLowerCase();
  /** A dice expression's terms as grimoire reads and compares them (spaces and case aside, `d%` a
   * d100, `1d6` a d6), or null when grimoire does not read it as one: within its limits of 100
   * bytes, 20 terms, 1 to 100 dice of 2 to 1000 sides a term, constants up to 1,000,000, and at
   * least one die. */
  const exprTerms = (expression) => {
    if (typeof expression !== "string" || utf8(expression).length > 100) return null;
    let rest = expression.replace(/\p{White_Space}/gu, "").toLowerCase();
    let sign = "+";
    if (rest[0] === "-" || rest[0] === "+") { sign = rest[0]; rest = rest.slice(1); }
    const terms = [];
    let rollsDice = false;
    for (;;) {
      const found = rest.search(/[+-]/);
      const end = found < 0 ? rest.length : found;
      const term = rest.slice(0, end);
      const die = /^([0-9]*)d([0-9]+|%)$/.exec(term);
      if (term === "oe" || term === "d100oe") {
        terms.push(`${sign}oe`);
        rollsDice = true;
      } else if (die !== null) {
        const count = die[1] === "" ? 1n : BigInt(die[1]);
        const sides = die[2] === "%" ? 100n : BigInt(die[2]);
        if (count < 1n || count > 100n || sides < 2n || sides > 1000n) return null;
        terms.push(`${sign}${count}d${sides}`);
        rollsDice = true;
      } else if (/^[0-9]+$/.test(term) && BigInt(term) <= 1000000n) terms.push(`${sign}${BigInt(term)}`);
      else return null;
      if (terms.length > 20) return null;
      if (end === rest.length) return rollsDice ? terms.join("") : null;
      sign = rest[end];
      rest = rest.slice(end + 1);
    }
  };
  /** The name given for the character who acts in a command put to a phone, or null. */
  const actingCharacter = (asked) => {
    if (asked.command === "roll") return typeof asked.character === "string" ? asked.character : null;
    if (asked.command !== "system" || !asked.given) return null;
    const argument = ACTING_ARGUMENT[`${asked.system} ${asked.path}`];
    // A command this build does not know names no one who acts, as `verify` reads it.
    if (typeof argument !== "string" || !Object.prototype.hasOwnProperty.call(ACTING_ARGUMENT, `${asked.system} ${asked.path}`)) return null;
    const values = asked.given[argument];
    return Array.isArray(values) && typeof values[0] === "string" ? values[0] : null;
  };

  /**
   * Checks an export's text (JSON Lines) and the checkpoints given (`SEQ:HASHPREFIX`). Returns
   * what it found; `allHold` is false when the chain breaks or any die fails.
   */
