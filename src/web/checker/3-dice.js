  // A free roll's total from its faces, term by term as its expression (as the log writes it:
  // d6, 2d6, d100oe, constants, each after + or -) adds them; null when the faces do not fit.
  // An open-ended d100 rolls on after 96-100, and an opening 01-05 subtracts the chain after it.
  function addedUp(expression, faces) {
    const read = readRoll(expression, faces);
    return read === null ? null : read.total;
  }
  // The total, and the sides of the die behind each face, as `addedUp` reads them; null when the
  // faces do not fit the expression.
  function readRoll(expression, faces) {
    // Read as grimoire reads an expression: any case, spaces left out, d% a d100, oe open-ended.
    const text = String(expression).toLowerCase().replace(/\s+/g, "");
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
    const roll = die.provenance.roll;
    const [version, place] = roll === undefined ? [1, seq] : [2, roll];
    return `grimoire-die-v${version}|${campaignId}|${epoch}|${place}|${n}|{BLOCK}|${entropy}`;
  }

  /** The dice an event holds: every kind keeps them in its payload's `dice`, but a reveal (which
   * holds openings) and an amendment (whose dice are its original's). */
  // The kinds whose payload has a `dice` field as grimoire reads them (its list, given with the
  // script): a sealed roll's reveal holds its openings there, every other such kind its dice.
  const DICE_KINDS = new Set(GRIMOIRE_DICE_KINDS);
  const isFields = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
  function diceOf(kind, payload) {
    if (kind === "sealed_revealed" || !DICE_KINDS.has(kind)) return [];
    return Array.isArray(payload.dice) ? payload.dice : [];
  }
  const isFieldsOrNone = (value) => value === undefined || value === null || isFields(value);
  // A die grimoire reads: a group of fields, as its provenance and where that names one, the
  // sealed value's origin and a witness.
  const isDie = (die) => isFields(die) && isFields(die.provenance)
    && isFieldsOrNone(die.provenance.origin) && isFieldsOrNone(die.provenance.witness)
    && isFieldsOrNone((die.provenance.origin || {}).witness);
  /** Why grimoire cannot read what this check reads of a payload of `kind`, if it cannot: each
   * die (or a reveal's opening) and the command a phone is asked for are groups of fields, never
   * a list of their values. */
  function fieldsProblem(kind, payload) {
    if ((kind === "roll_requested" || kind === "choice_answered")
      && !(isFields(payload.asked) && (payload.asked.command !== "system" || isFields(payload.asked.given)))) {
      return "its payload cannot be read: the command it asks for is not written as a group of fields";
    }
    if (!DICE_KINDS.has(kind) || payload.dice === undefined) return null;
    const readable = kind === "sealed_revealed" ? isFields : isDie;
    return Array.isArray(payload.dice) && payload.dice.every(readable) ? null
      : "its payload cannot be read: a die is not written as a group of fields";
  }

  // The first payload version whose rolls put to a phone must act for a character its player
  // plays (README, C-5); earlier requests are judged as the grimoire that wrote them judged them.
  const ACTING_RULE_SINCE = 3;
  // "system path" -> the argument naming who acts, for every command that has one (grimoire's own
  // table, given with the script).
  const ACTING_ARGUMENT = GRIMOIRE_ACTING;
  const foldName = (name) => rustTrim(String(name)).toLowerCase();
  /** A dice expression's terms as grimoire compares two (spaces and case aside, `d%` a d100,
   * `1d6` a d6), or null when it is not one. */
  const exprTerms = (expression) => {
    let rest = String(expression).replace(/\p{White_Space}/gu, "").toLowerCase();
    let sign = "+";
    if (rest[0] === "-" || rest[0] === "+") { sign = rest[0]; rest = rest.slice(1); }
    const terms = [];
    for (;;) {
      const found = rest.search(/[+-]/);
      const end = found < 0 ? rest.length : found;
      const term = rest.slice(0, end);
      if (term === "oe" || term === "d100oe") terms.push(`${sign}oe`);
      else if (/^[0-9]*d([0-9]+|%)$/.test(term)) {
        const [count, sides] = term.split("d");
        terms.push(`${sign}${count === "" ? 1 : Number(count)}d${sides === "%" ? 100 : Number(sides)}`);
      } else if (/^[0-9]+$/.test(term)) terms.push(`${sign}${Number(term)}`);
      else return null;
      if (end === rest.length) return terms.join("");
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

  const withoutPurpose = (dice) => JSON.stringify(dice.map((d) => ({ ...d, purpose: "" })));

  /**
   * Checks an export's text (JSON Lines) and the checkpoints given (`SEQ:HASHPREFIX`). Returns
   * what it found; `allHold` is false when the chain breaks or any die fails.
   */
