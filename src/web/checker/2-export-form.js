  // The export's canonical form and text rules (docs/export.md), held as grimoire's own check
  // holds them: the line read as import reads it, and, from payload version 4, the payload
  // written only as grimoire writes it.
  const LINE_FIELDS = ["seq", "event_id", "kind", "schema_version", "payload", "game_time", "recorded_at", "session", "actor", "prev_hash", "hash"];
  const SECRET_FIELDS = ["secret", "key", "value"];
  const NUMBER_FIELDS = { seq: 2n ** 64n, game_time: 2n ** 64n, schema_version: 2n ** 32n, session: 2n ** 32n };
  // The newest payload version grimoire writes; a newer one is one this check cannot read.
  const SCHEMA_VERSION = 7;
  const TEXT_RULES_SINCE = 2;
  const CANONICAL_SINCE = 4;
  // From version 5 an epoch may commit to a second seed, for its sealed dice, and publish it.
  const SEALED_SEED_SINCE = 5;
  // The kinds a later payload version brought, with that version (grimoire's own list, written
  // before this script): an older event cannot be of one.
  const KINDS_SINCE = new Map(Object.entries(GRIMOIRE_KINDS_SINCE));
  // Each hex field's digits, and the version from which it is one. A Map, not an object: a key
  // such as "constructor" must not find something of every object's.
  const HEX_FIELDS = new Map([["seed_commitment", [64, 4]], ["sealed_commitment", [64, SEALED_SEED_SINCE]], ["seed", [64, 4]], ["commitment", [64, 4]], ["secret", [64, 4]], ["contribution", [64, 4]], ["nonce", [32, 4]]]);
  const isHexField = (key, version) => HEX_FIELDS.has(key) && HEX_FIELDS.get(key)[1] <= version;
  // The canonical form's nesting limit (the payload's object counted as 1): grimoire reads some
  // payloads inside one more level, and serde's own limit is 127 in all.
  const DEEPEST = 126;
  const wholeNumber = /^(0|[1-9][0-9]*)$/;

  /**
   * Walks JSON text that JSON.parse accepted, token by token. `on.top(key, raw)` hears each field
   * of the outermost object with its raw text; `on.key(raw)` each key and `on.string(raw, key)`
   * each string value, as written (quotes and escapes included), with the key it stands under (an
   * array's items stand under the array's); `on.number(raw, key)` each number as written and
   * `on.word(raw, key)` each true, false and null. Returns in `problem` what is wrong with the
   * text beyond JSON's grammar (nesting past serde's limit, and a key twice in one object of the
   * outermost `dupesTo` levels), or null; `spaced` tells whether spaces stand between its tokens.
   */
  function walkJson(text, on = {}, dupesTo = Infinity, deepest = DEEPEST) {
    let i = 0;
    let depth = 0;
    const found = { problem: null, spaced: false };
    const space = () => {
      const from = i;
      while (i < text.length && " \t\r\n".includes(text[i])) i++;
      if (i > from) found.spaced = true;
    };
    const string = () => {
      const from = i++;
      while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      return text.slice(from, ++i);
    };
    const value = (key, top) => {
      space();
      const from = i;
      const ch = text[i];
      if (ch === "{" || ch === "[") {
        if (++depth > deepest) throw new Error(`it is nested more than ${deepest} deep`);
        if (on.open) on.open(ch, key);
        i++;
        space();
        const close = ch === "{" ? "}" : "]";
        const keys = new Set();
        while (text[i] !== close) {
          let under = key;
          if (ch === "{") {
            const raw = string();
            under = JSON.parse(raw);
            if (keys.has(under) && depth <= dupesTo) throw new Error(`the key "${under}" is given twice in one object`);
            keys.add(under);
            if (on.key) on.key(raw);
            space();
            i++; // the colon
          }
          const at = i;
          value(under, false);
          if (top && on.top) on.top(under, text.slice(at, i).trim());
          space();
          if (text[i] === ",") { i++; space(); }
        }
        i++;
        depth--;
      } else if (ch === '"') {
        const raw = string();
        if (on.string) on.string(raw, key);
      } else if (ch === "t" || ch === "f" || ch === "n") {
        i += ch === "f" ? 5 : 4;
        if (on.word) on.word(text.slice(from, i), key);
      } else {
        while (i < text.length && /[-+.0-9eE]/.test(text[i])) i++;
        if (on.number) on.number(text.slice(from, i), key);
      }
      space();
    };
    try {
      value(null, true);
    } catch (e) {
      found.problem = e.message;
    }
    return found;
  }

  /**
   * One line of an export, read as grimoire's import reads it: `{ raw }` with each field's raw
   * JSON text (the payload must be hashed byte for byte as written, and numbers such as
   * `game_time` may exceed what a JavaScript number holds exactly), `{ secret: true }` for a
   * secret's line, or `{ unreadable }` saying why it is not a line grimoire reads.
   */
  function readLine(line) {
    let parsed;
    try { parsed = JSON.parse(line); } catch (e) { return { unreadable: "it is not JSON" }; }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return { unreadable: "it is not a JSON object" };
    const raw = {};
    // A field of the line given twice is refused there; within the payload, by its version's rules.
    // serde reads past the payload on the line whatever its depth; the payload alone is held to
    // the limit when its event is read.
    const walked = walkJson(line, { top: (key, text) => { raw[key] = text; } }, 1, Infinity);
    if (walked.problem) return { unreadable: walked.problem };
    for (const [key, text] of Object.entries(raw)) {
      if (!LINE_FIELDS.includes(key) && !SECRET_FIELDS.includes(key)) return { unreadable: `it has a field "${key}" that no line has` };
      if (text === "null" || key === "payload") continue;
      if (NUMBER_FIELDS[key] !== undefined) {
        if (!wholeNumber.test(text) || BigInt(text) >= NUMBER_FIELDS[key]) return { unreadable: `its "${key}" is not a whole number grimoire reads there` };
      } else if (typeof parsed[key] !== "string" || !parsed[key].isWellFormed()) {
        return { unreadable: `its "${key}" is not a text` };
      }
    }
    const given = (key) => raw[key] !== undefined && raw[key] !== "null";
    if (given("secret")) return given("key") && given("value") ? { secret: true } : { unreadable: "a secret's line needs its key and value" };
    const missing = LINE_FIELDS.find((key) => key !== "session" && !given(key));
    if (missing) return { unreadable: `an event's line needs "${missing}"` };
    if (raw.session === undefined) raw.session = "null";
    return { raw };
  }

  // The text rules (docs/export.md): no character that breaks or reorders the line, no text made
  // only of characters that show nothing, and lengths in characters.
  const BREAKS_THE_LINE = /[\p{Cc}\u2028\u2029]/u;
  const REORDERS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
  // The characters beyond ASCII that show nothing, as grimoire's Unicode data has them: every page
  // carries its table (GRIMOIRE_SHOWS_NOTHING, put before this script by report::kit::verifier),
  // since a browser's own data may be older and take a character new to Unicode for an unassigned
  // one.
  const HIDDEN = GRIMOIRE_SHOWS_NOTHING.split(",").map((range) => range.split("-").map((hex) => parseInt(hex, 16))).map(([a, b]) => [a, b ?? a]);
  const hidden = (c) => {
    const code = c.codePointAt(0);
    let [low, high] = [0, HIDDEN.length - 1];
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (code < HIDDEN[mid][0]) high = mid - 1;
      else if (code > HIDDEN[mid][1]) low = mid + 1;
      else return true;
    }
    return false;
  };
  const WHITE = /^\p{White_Space}*$/u;
  const TEXT_MAX = 1000;
  const NAME_MAX = 60;
  const PAYLOAD_MAX_BYTES = 1024 * 1024;
  const shows = (c) => (c.length === 1 && c.charCodeAt(0) < 0x80 ? c > " " && c < "\x7f" : !hidden(c));
  /** Trimmed of White_Space at both ends, as Rust's `str::trim` trims. */
  const rustTrim = (text) => text.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, "");
  /** What breaks the text rules in one text (`max` characters at most, `trimmed` counted so). */
  function textProblem(text, max, trimmed) {
    if (BREAKS_THE_LINE.test(text)) return "a text holds a line break or another control character";
    if (REORDERS.test(text)) return "a text holds a character that reorders the line around it";
    const chars = [...(trimmed ? rustTrim(text) : text)];
    if (!WHITE.test(text) && !chars.some(shows)) return "a text is made only of invisible characters";
    if (chars.length > max) return `a text is ${chars.length} characters long; at most ${max} are allowed`;
    return null;
  }

  /**
   * What grimoire finds in a row's payload and actor beyond the chain: `unreadable` when it cannot
   * read the payload (nested past serde's limit, half a character, or, from version 4, not in the
   * canonical form), after which nothing more of the row is checked; `texts` when a text breaks
   * the rules of the row's version (the row is checked on).
   */
  function payloadProblems(raw, version, kind) {
    const actor = JSON.parse(raw.actor);
    const keys = [];
    const values = [];
    const numbers = [];
    const hexes = [];
    const tops = [];
    // Before the canonical form, a key given twice was each kind's own business (grimoire's).
    const walked = walkJson(raw.payload, {
      top: (key, text) => tops.push([key, text]),
      key: (text) => keys.push(text),
      string: (text, key) => { values.push(text); if (isHexField(key, version)) hexes.push([key, text]); },
      number: (text, key) => { numbers.push(text); if (isHexField(key, version)) hexes.push([key, text]); },
      word: (text, key) => { if (isHexField(key, version)) hexes.push([key, text]); },
      open: (bracket, key) => { if (isHexField(key, version)) hexes.push([key, bracket]); },
    }, 0, version >= CANONICAL_SINCE ? DEEPEST : Infinity);
    // Before the canonical form, how deep a payload may nest was each kind's own business.
    if (walked.problem) return { unreadable: `its payload cannot be read: ${walked.problem}` };
    // grimoire reads a payload that begins with its own kind straight as that kind (a later
    // "kind" is then a field no event has); any other must name its kind once.
    const kinds = tops.filter(([key]) => key === "kind");
    const named = raw.payload.startsWith(`{"kind":${JSON.stringify(kind)}`) ? kind
      : kinds.length === 1 ? JSON.parse(kinds[0][1]) : null;
    if (named !== kind) return { unreadable: "its payload is not an object of its own kind" };
    const decodedKeys = keys.map((text) => JSON.parse(text));
    const decodedValues = values.map((text) => JSON.parse(text));
    // The payload's own keys are read whole; before the canonical form, whatever a field no
    // event has holds (keys and values) is passed over unread.
    const half = (texts) => texts.some((text) => !text.isWellFormed());
    const whole = version >= CANONICAL_SINCE
      ? !half(decodedKeys) && !half(decodedValues)
      : !half(tops.map(([key]) => key));
    if (!whole) {
      return { unreadable: "its payload cannot be read: a text holds half a character (a lone surrogate)" };
    }
    const texts = [...keys, ...values];
    const decoded = [...decodedKeys, ...decodedValues];
    return { unreadable: version >= CANONICAL_SINCE ? canonicalProblem(raw.payload, texts, numbers, hexes) : null, texts: textsProblem(actor, decoded, raw.payload, version) };
  }

  // The numbers this check reads to follow the epochs and what names what, with the most each can
  // hold as grimoire reads it: a row where one is not such a whole number cannot be read.
  const EPOCH_MOST = 2 ** 32 - 1;
  // A Map, as HEX_FIELDS is: a kind named "constructor" must find nothing.
  const PAYLOAD_NUMBERS = new Map([
    ["epoch_started", [["epoch", EPOCH_MOST]]], ["seed_revealed", [["epoch", EPOCH_MOST]]],
    ["sealed_seed_revealed", [["epoch", EPOCH_MOST]]], ["sealed_revealed", [["seq", Number.MAX_SAFE_INTEGER]]],
    ["retracted", [["seq", Number.MAX_SAFE_INTEGER]]], ["amended", [["seq", Number.MAX_SAFE_INTEGER]]],
  ]);

  /** Why a number this check reads in a payload of `kind` is not one grimoire reads, if it is not. */
  function numberProblem(kind, payload) {
    for (const [field, most] of PAYLOAD_NUMBERS.get(kind) || []) {
      const value = payload[field];
      if (!(Number.isSafeInteger(value) && value >= 0 && value <= most)) {
        return `its payload cannot be read: its "${field}" is not a whole number from 0 to ${most}`;
      }
    }
    return null;
  }

  /** The text rules of payload version `version` broken by the actor or a text of the payload. */
  function textsProblem(actor, decoded, payload, version) {
    if (version < TEXT_RULES_SINCE) {
      if (actor.includes("\n")) return "its actor holds a line break";
      if (decoded.some((text) => text.includes("\n"))) return "a text holds a line break";
      return null;
    }
    const actorProblem = textProblem(actor, NAME_MAX, true);
    if (actorProblem) return `the actor: ${actorProblem.replace("a text", "it")}`;
    if (utf8(payload).length > PAYLOAD_MAX_BYTES) return `the event is more than ${PAYLOAD_MAX_BYTES} bytes`;
    for (const text of decoded) {
      const problem = textProblem(text, TEXT_MAX, false);
      if (problem) return problem;
    }
    return null;
  }

  /** Why a payload (its texts, numbers and hex fields as written) is not in the canonical form. */
  function canonicalProblem(payload, texts, numbers, hexes) {
    const canonical = (why) => `its payload is not in the canonical form grimoire writes (docs/export.md): ${why}`;
    const walked = walkJson(payload);
    if (walked.problem) return canonical(walked.problem);
    if (walked.spaced) return canonical("spaces stand between its parts");
    // A text escapes only what JSON must: a quote, a backslash, and control characters.
    const escape = /\\(u([0-9a-f]{4})|.)/g;
    for (const text of texts) {
      for (const [, what, code] of text.slice(1, -1).matchAll(escape)) {
        const short = { '"': 1, "\\": 1, b: 1, f: 1, n: 1, r: 1, t: 1 }[what] === 1;
        const control = code !== undefined && parseInt(code, 16) < 0x20 && !["0008", "000c", "000a", "000d", "0009"].includes(code);
        if (!short && !control) return canonical(`a text escapes \\${what}, which grimoire writes as itself`);
      }
    }
    // Whole, in plain digits, and within what 64 bits hold, signed or not.
    const bad = numbers.find((text) => !/^-?(0|[1-9][0-9]*)$/.test(text) || text === "-0"
      || BigInt(text) < -(2n ** 63n) || BigInt(text) >= 2n ** 64n);
    if (bad !== undefined) return canonical(`a number is written as ${bad}: grimoire writes whole numbers in plain digits`);
    for (const [key, text] of hexes) {
      const [digits] = HEX_FIELDS.get(key);
      if (!new RegExp(`^"[0-9a-f]{${digits}}"$`).test(text)) return canonical(`its "${key}" is not ${digits} lower-case hex digits, as grimoire writes it`);
    }
    return null;
  }

  /** A row's hash as grimoire chains it: SHA-256 of the previous hash, then each field's
   * length (8 bytes, big-endian) and UTF-8 text. */
  function rowHash(raw, prevHash) {
    const text = (name) => JSON.parse(raw[name]);
    const fields = [
      raw.seq, text("event_id"), text("kind"), raw.schema_version, raw.payload, raw.game_time,
      text("recorded_at"), raw.session === "null" ? "" : raw.session, text("actor"),
    ];
    const parts = [utf8(prevHash)];
    for (const field of fields) {
      const bytes = utf8(field);
      const length = new Uint8Array(8);
      new DataView(length.buffer).setUint32(4, bytes.length);
      parts.push(length, bytes);
    }
    return hex(sha256(concat(parts)));
  }

  /** The face a seeded die shows (README, "Checking a roll yourself"); `message` holds `{BLOCK}`
   * where the block number goes. */
