// grimoire's check for players: the hash chain, checkpoints, seeded dice and opened sealed dice of
// a campaign's public export, in plain JavaScript written apart from grimoire's Rust code, from the
// rules the README and docs/export.md state. It never calls WebCrypto: browsers withhold it on a
// plain-http page across a home network, so SHA-256 and HMAC are its own, checked against their
// published vectors.
"use strict";
const GrimoireCheck = (() => {
  const K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ];

  /** SHA-256 (FIPS 180-4) of a Uint8Array; returns 32 bytes. */
  function sha256(bytes) {
    const bits = bytes.length * 8;
    const padded = new Uint8Array(((bytes.length + 9 + 63) >> 6) << 6);
    padded.set(bytes);
    padded[bytes.length] = 0x80;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(bits / 0x100000000));
    view.setUint32(padded.length - 4, bits >>> 0);
    const h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    const w = new Uint32Array(64);
    const rotr = (x, n) => (x >>> n) | (x << (32 - n));
    for (let block = 0; block < padded.length; block += 64) {
      for (let i = 0; i < 16; i++) w[i] = view.getUint32(block + 4 * i);
      for (let i = 16; i < 64; i++) {
        const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
        const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
      }
      let [a, b, c, d, e, f, g, k] = h;
      for (let i = 0; i < 64; i++) {
        const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
        const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        [k, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
      }
      [a, b, c, d, e, f, g, k].forEach((x, i) => { h[i] = (h[i] + x) >>> 0; });
    }
    const out = new Uint8Array(32);
    const outView = new DataView(out.buffer);
    h.forEach((x, i) => outView.setUint32(4 * i, x));
    return out;
  }

  /** HMAC-SHA256 (RFC 2104) of `message` under `key`, both Uint8Arrays. */
  function hmac(key, message) {
    const block = new Uint8Array(64);
    block.set(key.length > 64 ? sha256(key) : key);
    const inner = new Uint8Array(64 + message.length);
    const outer = new Uint8Array(64 + 32);
    for (let i = 0; i < 64; i++) {
      inner[i] = block[i] ^ 0x36;
      outer[i] = block[i] ^ 0x5c;
    }
    inner.set(message, 64);
    outer.set(sha256(inner), 64);
    return sha256(outer);
  }

  const utf8 = (text) => new TextEncoder().encode(text);
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  /** A revealed seed's hex, as grimoire reads a seed of any version: trimmed, in either case;
   * null when it is not 32 bytes. */
  const parseSeed = (text) => {
    const trimmed = typeof text === "string" ? rustTrim(text) : "";
    return /^[0-9a-fA-F]{64}$/.test(trimmed) ? trimmed.toLowerCase() : null;
  };
  const isHex = (text, digits) => typeof text === "string" && text.length === digits && /^[0-9a-f]*$/.test(text);
  const unhex = (text) => Uint8Array.from(text.match(/../g) || [], (pair) => parseInt(pair, 16));
  const concat = (parts) => {
    const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) {
      all.set(part, at);
      at += part.length;
    }
    return all;
  };

  // The export's canonical form and text rules (docs/export.md), held as grimoire's own check
  // holds them: the line read as import reads it, and, from payload version 4, the payload
  // written only as grimoire writes it.
  const LINE_FIELDS = ["seq", "event_id", "kind", "schema_version", "payload", "game_time", "recorded_at", "session", "actor", "prev_hash", "hash"];
  const SECRET_FIELDS = ["secret", "key", "value"];
  const NUMBER_FIELDS = { seq: 2n ** 64n, game_time: 2n ** 64n, schema_version: 2n ** 32n, session: 2n ** 32n };
  // The newest payload version grimoire writes; a newer one is one this check cannot read.
  const SCHEMA_VERSION = 5;
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
  function diceOf(kind, payload) {
    if (kind === "sealed_revealed" || kind === "amended") return [];
    const dice = Array.isArray(payload.dice) ? payload.dice : [];
    // Dice no grimoire could read (a die with no provenance) leave their row to grimoire's check.
    const readable = (d) => d !== null && typeof d === "object" && d.provenance !== null && typeof d.provenance === "object";
    return dice.every(readable) ? dice : [];
  }

  // The first payload version whose rolls put to a phone must act for a character its player
  // plays (README, C-5); earlier requests are judged as the grimoire that wrote them judged them.
  const ACTING_RULE_SINCE = 3;
  // The argument naming the character who acts, for the commands where it is not `character`.
  const ACTING_ARGUMENT = { "vsd save": "target" };
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
    const values = asked.given[ACTING_ARGUMENT[`${asked.system} ${asked.path}`] || "character"];
    return Array.isArray(values) && typeof values[0] === "string" ? values[0] : null;
  };

  const withoutPurpose = (dice) => JSON.stringify(dice.map((d) => ({ ...d, purpose: "" })));

  /**
   * Checks an export's text (JSON Lines) and the checkpoints given (`SEQ:HASHPREFIX`). Returns
   * what it found; `allHold` is false when the chain breaks or any die fails.
   */
  function verify(text, checkpoints = []) {
    // Lines as grimoire's import takes them: blank ones (JSON's spaces only) between lines, and
    // each other line an event or a secret.
    const lines = text.split("\n").filter((line) => !/^[ \t\r]*$/.test(line));
    const result = {
      events: 0, chainBreak: null, seededChecked: 0, seededAwaiting: 0, sealedChecked: 0,
      sealedAwaiting: 0, deviceChecked: 0, witnessedChecked: 0, problems: [], checkpoints: [],
      rolls: {}, opened: {}, head: null, putAgain: 0, putAgainAfter: {},
    };
    const rows = [];
    for (const line of lines) {
      const read = readLine(line);
      if (read.secret) continue;
      if (read.unreadable) {
        // What cannot be read cannot be checked: the chain is broken there.
        const seq = rows.length + 1;
        result.chainBreak = { seq, what: `the line of #${seq} cannot be read as an event: ${read.unreadable}` };
        result.unreadable = true;
        break;
      }
      const raw = read.raw;
      const kind = JSON.parse(raw.kind);
      const payload = JSON.parse(raw.payload);
      // A payload grimoire can read is an object naming its own kind, in a version it knows and,
      // from version 4, in the canonical form.
      const isObject = payload !== null && typeof payload === "object" && !Array.isArray(payload);
      const problems = isObject ? payloadProblems(raw, Number(raw.schema_version), kind) : {};
      const unreadable = BigInt(raw.schema_version) > BigInt(SCHEMA_VERSION)
        ? `its payload is version ${raw.schema_version}, newer than this check reads (up to ${SCHEMA_VERSION})`
        : raw.schema_version === "0" ? "its payload is version 0, older than any grimoire wrote"
        : !isObject ? "its payload is not an object of its own kind"
        : problems.unreadable ? problems.unreadable
        : KINDS_SINCE.has(kind) && Number(raw.schema_version) < KINDS_SINCE.get(kind)
          ? `its payload cannot be read: no grimoire wrote this kind before payload version ${KINDS_SINCE.get(kind)}`
        : numberProblem(kind, payload);
      rows.push({ raw, seq: raw.seq, kind, payload: unreadable ? {} : payload, readable: !unreadable, unreadable, texts: problems.texts, hash: JSON.parse(raw.hash), prev: JSON.parse(raw.prev_hash), line });
    }
    // What later rows reveal is known up front, as grimoire's own check knows it.
    const seeds = {};
    const sealedSeeds = {};
    const openings = {};
    for (const row of rows.filter((r) => r.readable)) {
      if (row.kind === "seed_revealed") (seeds[row.payload.epoch] = seeds[row.payload.epoch] || []).push(parseSeed(row.payload.seed));
      if (row.kind === "sealed_seed_revealed") (sealedSeeds[row.payload.epoch] = sealedSeeds[row.payload.epoch] || []).push(parseSeed(row.payload.seed));
      if (row.kind === "sealed_revealed") {
        (openings[row.payload.seq] = openings[row.payload.seq] || []).push(...(Array.isArray(row.payload.dice) ? row.payload.dice.filter((d) => d !== null && typeof d === "object") : []));
      }
    }
    const problem = (seq, what) => result.problems.push({ seq: Number(seq), what });
    // The seed published for an epoch: the first that opens its commitment, so a second, forged
    // reveal cannot make honest dice look forged (it is named itself); else the last.
    const openingOf = (published, commitment) => {
      const opening = published.find((seed) => seed !== null && commitment === hex(sha256(unhex(seed))));
      return opening !== undefined ? opening : published[published.length - 1];
    };
    const seedFor = (epoch) => openingOf(seeds[epoch] || [], commitments[epoch]);
    // The seed an epoch's sealed dice come from: its second in an epoch that has one.
    const sealedDiceSeedFor = (epoch) => sealedCommitments[epoch] !== undefined
      ? openingOf(sealedSeeds[epoch] || [], sealedCommitments[epoch]) : seedFor(epoch);
    // A free roll's dice are the ones its expression rolls, and its total is them added up as it
    // says; a sealed roll has no total until its dice are revealed.
    const checkFreeRoll = (seq, roll, dice) => {
      const hasTotal = roll.total !== undefined && roll.total !== null;
      if (dice.every((d) => d.value !== undefined && d.value !== null)) {
        const read = readRoll(roll.expression, dice.map((d) => d.value));
        if (read === null || read.sides.length !== dice.length || dice.some((d, i) => d.sides !== read.sides[i])) {
          problem(seq, `#${seq}: its dice are not the dice its expression ${roll.expression} rolls`);
        }
        // A total past what a number here holds exactly is past any roll grimoire makes.
        if (hasTotal && (!Number.isSafeInteger(roll.total) || read === null || read.total !== roll.total)) {
          problem(seq, `#${seq}: the roll's total ${roll.total} is not what its dice add up to`);
        }
      } else if (hasTotal) {
        problem(seq, `#${seq}: the roll shows a total of ${roll.total} while its dice are sealed: a total is known only once they are revealed`);
      }
    };
    let prevHash = "0".repeat(64);
    let newestVersion = 0;
    let campaignId = "";
    let epoch = 1;
    let entropy = "";
    // The session open at this point, as its edges say: every row must be stamped with it.
    let openSession = null;
    const commitments = {};
    // Each epoch's commitment to a second seed, for the epochs that have one.
    const sealedCommitments = {};
    const sealedSeedsRevealed = new Set();
    // Where each epoch began, and the epoch of each sealed die grimoire rolled from a seed.
    const epochBegan = {};
    const sealedEpochOf = {};
    const noteSealedCommitment = (epochBegun, p, version) => {
      if (version >= SEALED_SEED_SINCE && typeof p.sealed_commitment === "string") sealedCommitments[epochBegun] = p.sealed_commitment;
    };
    const diceBySeq = {};
    const sealedMet = {};
    const uuid = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
    // An RFC 3339 time as grimoire's reader (chrono) takes one: a day that exists, a space or T
    // between date and time, a leap second allowed, and an offset under a day (its minus may be
    // the Unicode minus sign).
    const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+\-\u2212](\d{2}):(\d{2}))$/;
    const isRfc3339 = (at) => {
      const m = typeof at === "string" ? rfc3339.exec(at) : null;
      if (!m) return false;
      const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = m.slice(1).map((x) => Number(x || 0));
      const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
      const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
      return month >= 1 && month <= 12 && day >= 1 && day <= days && hour <= 23 && minute <= 59
        && second <= 60 && offsetHours <= 23 && offsetMinutes <= 59;
    };
    // The shapes grimoire writes (as its own check holds them): a UUID, an RFC 3339 time, and a
    // payload of one line with nothing around it.
    const shapeProblem = (row) => {
      const id = JSON.parse(row.raw.event_id);
      const at = JSON.parse(row.raw.recorded_at);
      if (typeof id !== "string" || !uuid.test(id)) return `#${row.seq}: its event id is not a UUID, as grimoire writes every event id`;
      if (!isRfc3339(at)) {
        return `#${row.seq}: its recorded time is not an RFC 3339 time, as grimoire writes it`;
      }
      if (/[\n\r]/.test(row.raw.payload) || row.raw.payload.trim() !== row.raw.payload) {
        return `#${row.seq}: its payload is not one line of JSON with nothing around it, as grimoire writes every payload`;
      }
      return null;
    };
    // The rolls put to players' devices (C-5), by request: each answered or withdrawn at most once
    // while it waits, each answer's secret opening its commitment, and its dice made in its run.
    const requests = {};
    // The devices linked (C-4), by number: the characters each plays and whether its link stands;
    // and what was withdrawn from each since a roll was last put to it.
    const devices = {};
    const withdrawnFrom = {};
    // The second derivation's roll numbers (README, step 5): 0, 1, 2, … in log order per epoch.
    const rolls = { counts: false, next: 0, draws: new Set(), last: null, run: [0, ""] };
    const closeRoll = () => {
      const draws = [...rolls.draws].sort((a, b) => a - b);
      rolls.draws = new Set();
      if (rolls.last === null) return;
      if (draws.some((n, i) => n !== i)) {
        problem(rolls.last.seq, `#${rolls.last.seq}: the seeded dice of roll ${rolls.next - 1} of epoch ${epoch} are not numbered 0 to ${draws.length - 1} in draw order: a die was taken from another place of the derivation`);
      }
      rolls.last = null;
    };
    const startEpoch = (derivation) => {
      closeRoll();
      rolls.counts = derivation !== undefined && derivation !== null;
      rolls.next = 0;
    };
    const seededEpoch = (die) => {
      const p = die.provenance;
      if (p.source === "seeded") return p.epoch;
      if (p.source === "sealed" && p.origin && p.origin.source === "seeded") return p.origin.epoch;
      return undefined;
    };
    const rollOf = (die) => (die.provenance.source === "seeded" ? die.provenance.roll : (die.provenance.origin || {}).roll);
    const checkRollNumbers = (row, recordedAt) => {
      const seq = row.seq;
      if (rolls.run[1] !== recordedAt) rolls.run = [rolls.run[0] + 1, recordedAt];
      const seeded = diceOf(row.kind, row.payload).filter((d) => seededEpoch(d) === epoch);
      if (seeded.length === 0) return;
      if (!rolls.counts) {
        if (seeded.some((d) => rollOf(d) !== undefined)) problem(seq, `#${seq}: its seeded dice carry a roll number, but epoch ${epoch} binds its dice to their event's seq`);
        return;
      }
      const numbers = new Set(seeded.map(rollOf));
      const roll = [...numbers][0];
      if (numbers.size !== 1 || roll === undefined) {
        problem(seq, `#${seq}: its seeded dice do not all carry one roll number, as every seeded die of epoch ${epoch} must`);
        return;
      }
      // Only a scroll written in a downtime span follows another event of its command and shares
      // its roll, in the same run of rows recorded at one moment.
      const continues = row.kind === "scroll_written" && row.payload.in_downtime === true;
      if (roll === rolls.next) {
        closeRoll();
        rolls.next++;
      } else if (roll + 1 !== rolls.next) {
        problem(seq, `#${seq}: its seeded dice claim roll ${roll} of epoch ${epoch}, but the epoch's next roll is ${rolls.next}: a roll was skipped or taken again`);
        return;
      } else if (!continues || rolls.last === null || rolls.last.run !== rolls.run[0]) {
        problem(seq, `#${seq}: its seeded dice claim roll ${roll} of epoch ${epoch}, taken by an earlier command: a roll was taken again`);
        return;
      }
      rolls.last = { seq, run: rolls.run[0] };
      for (const die of seeded) {
        if (rolls.draws.has(die.n)) problem(seq, `#${seq}: die ${die.n} of roll ${roll} was drawn before`);
        rolls.draws.add(die.n);
      }
    };
    const eventIds = new Map();
    const kindBySeq = {};
    const revealedEpochs = new Set();
    rows.forEach((row, index) => {
      result.events++;
      const expected = index + 1;
      const hash = rowHash(row.raw, row.prev);
      if (result.chainBreak === null) {
        let what = null;
        if (row.seq !== String(expected)) what = `the log skips from #${expected - 1} to #${row.seq}: event #${expected} is missing`;
        else if (row.prev !== prevHash) what = `#${row.seq} does not link to the event before it (prev_hash differs)`;
        else if (hash !== row.hash) what = `#${row.seq} was changed after it was recorded (its hash does not match its content)`;
        else if (expected === 1 && row.kind !== "campaign_created") what = "#1 is not the campaign's creation";
        if (what) result.chainBreak = { seq: Math.min(Number(row.seq), expected), what };
      }
      prevHash = row.hash;
      result.head = `${row.seq}:${row.hash}`;
      const shape = shapeProblem(row);
      if (shape) problem(row.seq, shape);
      // Each row is written in the newest payload version its grimoire knows, and a campaign only
      // moves on to newer ones: a version going back was written by hand.
      const version = Number(row.raw.schema_version);
      if (version < newestVersion) problem(row.seq, `#${row.seq}: its payload is version ${version}, after events of version ${newestVersion}: grimoire never goes back to an older version, so this row was written by hand`);
      newestVersion = Math.max(newestVersion, version);
      // Every event has its own id, as a campaign file holds them.
      const id = JSON.parse(row.raw.event_id);
      if (eventIds.has(id)) problem(row.seq, `#${row.seq} has the event id of #${eventIds.get(id)}: every event has its own`);
      else eventIds.set(id, row.seq);
      if (row.texts) problem(row.seq, `#${row.seq}: ${row.texts}`);
      if (!row.readable) {
        problem(row.seq, `#${row.seq} cannot be read: ${row.unreadable}`);
        return;
      }
      const p = row.payload;
      const seq = row.seq;
      const stamped = row.raw.session === "null" ? null : row.raw.session;
      const open = row.kind === "session_started" ? String(p.number) : openSession;
      if (stamped !== open) {
        const words = (session) => session === null ? "outside any session" : `in session ${session}`;
        problem(seq, `#${seq} is stamped ${words(stamped)}, but it was recorded ${words(open)}`);
      }
      // An event that undoes, amends or opens another names an earlier one, or it was forged.
      if (["retracted", "amended", "sealed_revealed"].includes(row.kind) && !(Number(p.seq) >= 1 && Number(p.seq) < Number(seq))) {
        problem(seq, `#${seq} names #${p.seq}, which is not an earlier event (it was forged)`);
      }
      checkRollNumbers(row, JSON.parse(row.raw.recorded_at));
      if (row.kind === "campaign_created") {
        campaignId = p.campaign_id;
        commitments[1] = p.seed_commitment;
        epochBegan[1] = Number(seq);
        noteSealedCommitment(1, p, version);
        startEpoch(p.derivation);
      } else if (row.kind === "epoch_started") {
        startEpoch(p.derivation);
        epoch = p.epoch;
        commitments[p.epoch] = p.seed_commitment;
        epochBegan[p.epoch] = Number(seq);
        noteSealedCommitment(p.epoch, p, version);
      } else if (row.kind === "session_started") {
        entropy = p.entropy;
        openSession = String(p.number);
      } else if (row.kind === "session_ended") {
        entropy = "";
        openSession = null;
      } else if (row.kind === "seed_revealed" || row.kind === "sealed_seed_revealed") {
        // Once, for an epoch begun, opening the commitment published for it.
        const sealedSeed = row.kind === "sealed_seed_revealed";
        const [committed, revealed, which] = sealedSeed
          ? [sealedCommitments, sealedSeedsRevealed, " for sealed dice"] : [commitments, revealedEpochs, ""];
        const seed = parseSeed(p.seed);
        const opens = seed !== null && committed[p.epoch] !== undefined && committed[p.epoch] === hex(sha256(unhex(seed)));
        if (p.epoch > epoch) problem(seq, `#${seq}: the seed${which} revealed for epoch ${p.epoch} names an epoch the log has not begun`);
        else if (!opens) problem(seq, `#${seq}: the seed${which} revealed for epoch ${p.epoch} does not match the commitment published for it`);
        else if (revealed.has(p.epoch)) problem(seq, `#${seq}: the seed${which} of epoch ${p.epoch} is revealed a second time`);
        else revealed.add(p.epoch);
      } else if (row.kind === "sealed_revealed") {
        for (const opened of p.dice || []) {
          const key = `${p.seq}:${opened.n}`;
          if (sealedMet[key] === undefined) problem(seq, `#${seq} reveals die ${opened.n} of #${p.seq}, which holds no such sealed die`);
          else if (sealedMet[key]) problem(seq, `#${seq} reveals die ${opened.n} of #${p.seq} a second time`);
          else sealedMet[key] = true;
        }
      } else if (row.kind === "device_linked") {
        devices[p.device] = { plays: Array.isArray(p.characters) ? p.characters : [], linked: true };
      } else if (row.kind === "device_unlinked") {
        if (devices[p.device]) devices[p.device].linked = false;
      } else if (row.kind === "roll_requested") {
        const next = Math.max(0, ...Object.keys(requests).map(Number)) + 1;
        requests[p.request] = { device: p.device, commitment: p.commitment, witnessed: p.witnessed === true, asked: p.asked || {}, answer: null, withdrawn: false };
        // A roll put to a phone right after one to it was withdrawn is marked (README): computed
        // here from the log, never read from it.
        const after = withdrawnFrom[p.device] || [];
        delete withdrawnFrom[p.device];
        if (after.length) { result.putAgain++; result.putAgainAfter[seq] = after; }
        const device = devices[p.device];
        const acting = p.witnessed === true ? null : actingCharacter(p.asked || {});
        if (p.request !== next) problem(seq, `#${seq}: request ${p.request} is out of turn (the next was ${next})`);
        else if (device === undefined) problem(seq, `#${seq}: request ${p.request} is put to device ${p.device}, which was never linked`);
        else if (!device.linked) problem(seq, `#${seq}: request ${p.request} is put to device ${p.device}, whose link was revoked`);
        else if (version >= ACTING_RULE_SINCE && acting !== null && !device.plays.some((name) => foldName(name) === foldName(acting))) {
          problem(seq, `#${seq}: request ${p.request} has device ${p.device} roll for ${acting}, whom its player does not play (${device.plays.join(", ")})`);
        }
      } else if (row.kind === "roll_answered") {
        const r = requests[p.request];
        if (r === undefined) problem(seq, `#${seq} answers request ${p.request}, which was never made`);
        else if (r.answer || r.withdrawn) problem(seq, `#${seq} answers request ${p.request}, which no longer waited`);
        else if (!isHex(p.secret, 64) || !isHex(p.contribution, 64)) problem(seq, `#${seq}: the answer to request ${p.request} is not a secret and 32 bytes in lowercase hex`);
        else if (hex(sha256(unhex(p.secret))) !== r.commitment) problem(seq, `#${seq}: the secret answering request ${p.request} does not match its commitment`);
        else r.answer = { run: rolls.run[0], secret: p.secret, contribution: p.contribution, seq, refused: p.refused !== undefined && p.refused !== null, claimed: false };
      } else if (row.kind === "roll_withdrawn") {
        const r = requests[p.request];
        if (r && !r.answer && !r.withdrawn) {
          r.withdrawn = true;
          (withdrawnFrom[r.device] = withdrawnFrom[r.device] || []).push(p.request);
        } else problem(seq, `#${seq} withdraws request ${p.request}, which was not waiting`);
      } else if (row.kind === "amended") {
        const original = diceBySeq[p.seq];
        const amendedKind = p.event && typeof p.event === "object" ? p.event.kind : undefined;
        if (original === undefined) problem(seq, `#${seq} amends #${p.seq}, which the log does not hold`);
        else if (amendedKind !== kindBySeq[p.seq]) problem(seq, `#${seq} amends #${p.seq}, a '${kindBySeq[p.seq]}' event, with a '${amendedKind}' event`);
        else if (withoutPurpose(original) !== withoutPurpose(p.event.dice || [])) {
          problem(seq, `#${seq} amends #${p.seq} with dice other than the ones #${p.seq} rolled`);
        }
      }
      const dice = diceOf(row.kind, p);
      diceBySeq[seq] = dice;
      kindBySeq[seq] = row.kind;
      if (row.kind === "dice_rolled") {
        checkFreeRoll(seq, p, dice);
        // A roll a device made is the one its request asked for: the same expression and
        // purpose, for the same character, as the rules record them.
        const made = dice.find((d) => d.provenance.source === "device");
        const put = made && requests[made.provenance.request];
        if (put) {
          const asked = put.asked;
          const said = typeof asked.purpose === "string" && rustTrim(asked.purpose) !== "" ? rustTrim(asked.purpose) : null;
          const fold = (name) => (typeof name === "string" ? foldName(name) : null);
          const terms = exprTerms(p.expression);
          const same = asked.command === "roll" && terms !== null && exprTerms(asked.expression) === terms
            && said === (p.purpose ?? null) && fold(asked.character) === fold(p.character);
          if (!same) problem(seq, `#${seq}: the roll made for request ${made.provenance.request} is not the one it asked for`);
        }
      }
      // An amended free roll keeps its original's dice, and its new expression must still read them.
      if (row.kind === "amended" && p.event && p.event.kind === "dice_rolled") {
        checkFreeRoll(seq, p.event, Array.isArray(p.event.dice) ? p.event.dice : []);
      }
      let lastN = null;
      for (const die of dice) {
        if (lastN !== null && !(die.n > lastN)) problem(seq, `#${seq}: die ${die.n} is out of draw order`);
        lastN = die.n;
        if (!(Number.isSafeInteger(die.sides) && die.sides >= 1 && die.sides <= 1000)) {
          problem(seq, `#${seq}: die ${die.n} has ${die.sides} sides, and no die grimoire rolls has`);
        } else if (die.value !== undefined && die.value !== null && !(Number.isSafeInteger(die.value) && die.value >= 1 && die.value <= die.sides)) {
          problem(seq, `#${seq}: die ${die.n} shows ${die.value}, a face a d${die.sides} does not have`);
        }
        const source = die.provenance.source;
        const dieEntropy = (die.provenance.witness || (die.provenance.origin || {}).witness || {}).entropy ?? entropy;
        if (source === "device") {
          // README, "Dice a player's phone rolls": HMAC keyed by the published secret.
          const request = die.provenance.request;
          const r = requests[request];
          const claims = die.provenance.witnessed === true;
          if (!r || !r.answer) { problem(seq, `#${seq}: die ${die.n} claims request ${request}, which no earlier event answered`); continue; }
          r.answer.claimed = true;
          if (r.answer.refused) { problem(seq, `#${seq}: die ${die.n} claims request ${request}, whose answer records no roll`); continue; }
          if (r.witnessed !== claims) { problem(seq, `#${seq}: die ${die.n} says request ${request} was ${claims ? "witnessed" : "a player's roll"}, but the request says otherwise`); continue; }
          if (r.answer.run !== rolls.run[0]) { problem(seq, `#${seq}: die ${die.n} claims request ${request}, answered by another command`); continue; }
          const face = seededFace(unhex(r.answer.secret), `grimoire-device-die-v1|${request}|${die.n}|{BLOCK}|${r.answer.contribution}`, die.sides);
          (result.rolls[seq] = result.rolls[seq] || []).push({ n: die.n, sides: die.sides, shows: die.value, deviceGives: face, request, witnessed: claims });
          if (face !== die.value) { problem(seq, `#${seq}: die ${die.n} shows ${die.value ?? "nothing"}, but request ${request}'s secret and the device's bytes give ${face}`); continue; }
          if (claims) result.witnessedChecked++; else result.deviceChecked++;
        } else if (source === "seeded") {
          const seed = seedFor(die.provenance.epoch);
          if (die.provenance.epoch !== epoch) {
            problem(seq, `#${seq}: die ${die.n} claims epoch ${die.provenance.epoch} but the log was in epoch ${epoch}`);
            continue;
          }
          if (!isHex(seed, 64)) { result.seededAwaiting++; continue; }
          result.seededChecked++;
          const face = seededFace(unhex(seed), dieMessage(campaignId, epoch, die, seq, die.n, dieEntropy), die.sides);
          (result.rolls[seq] = result.rolls[seq] || []).push({ n: die.n, sides: die.sides, shows: die.value, seedGives: face });
          if (face !== die.value) problem(seq, `#${seq}: seeded die ${die.n} shows ${die.value} but the revealed seed gives ${face}`);
        } else if (source === "sealed") {
          if (sealedMet[`${seq}:${die.n}`] === undefined) sealedMet[`${seq}:${die.n}`] = false;
          if ((die.provenance.origin || {}).source === "seeded") sealedEpochOf[`${seq}:${die.n}`] = die.provenance.origin.epoch;
          const opened = (openings[seq] || []).find((o) => o.n === die.n);
          if (!opened) { result.sealedAwaiting++; continue; }
          result.sealedChecked++;
          const faces = [opened.value, ...(opened.then || [])];
          const committed = isHex(opened.nonce, 32)
            && hex(sha256(concat([unhex(opened.nonce), utf8(faces.join(","))]))) === die.provenance.commitment;
          (result.opened[seq] = result.opened[seq] || []).push({ n: die.n, faces: faces.join(", "), committed });
          if (!committed) {
            problem(seq, `#${seq}: the value revealed for sealed die ${die.n} does not open its commitment`);
            continue;
          }
          // Each face on the die, a further face only after one that rolls again (96-100, or
          // 01-05 first), and no chain of two or more stopped on one that does.
          const rollsAgain = (k) => faces[k] >= 96 || (k === 0 && faces[k] <= 5);
          if (!faces.every((f) => Number.isSafeInteger(f) && f >= 1 && f <= die.sides)
            || faces.slice(0, -1).some((_, k) => !rollsAgain(k))
            || (faces.length > 1 && faces[faces.length - 1] >= 96)) {
            problem(seq, `#${seq}: sealed die ${die.n} was revealed as ${faces.join("+")}, which no d${die.sides} rolled as grimoire rolls shows`);
            continue;
          }
          const origin = die.provenance.origin || {};
          if (origin.source !== "seeded") continue;
          const seed = sealedDiceSeedFor(origin.epoch);
          // Until that seed is published, the die waits for it like any seeded die.
          if (!isHex(seed, 64)) { result.seededAwaiting++; continue; }
          result.seededChecked++;
          const sealedDie = { provenance: origin };
          const derived = faces.map((_, k) => seededFace(unhex(seed),
            dieMessage(campaignId, origin.epoch, sealedDie, seq, k === 0 ? die.n : `${die.n}/${k}`, dieEntropy), die.sides));
          (result.rolls[seq] = result.rolls[seq] || []).push({ n: die.n, sides: die.sides, shows: faces.join(", "), seedGives: derived.join(", ") });
          if (origin.epoch !== epoch || derived.join(",") !== faces.join(",")) {
            const which = sealedCommitments[origin.epoch] !== undefined ? " for sealed dice" : "";
            problem(seq, `#${seq}: sealed die ${die.n} was revealed as ${faces.join("+")} but epoch ${origin.epoch}'s seed${which} gives ${derived.join("+")}`);
          }
        }
      }
    });
    closeRoll();
    // An ended epoch publishes its seed for sealed dice once none of them waits (grimoire does so
    // in the same write): a log without it hides what they were derived from. Named at the event
    // that began the next epoch.
    for (const [key, commitment] of Object.entries(sealedCommitments)) {
      const e = Number(key);
      if (commitment === undefined || !(e < epoch) || sealedSeedsRevealed.has(e)) continue;
      const waiting = Object.keys(sealedMet).some((die) => sealedMet[die] === false && sealedEpochOf[die] === e);
      const later = Object.entries(epochBegan).filter(([k]) => Number(k) > e).map(([, s]) => s);
      if (!waiting && later.length) {
        const at = Math.min(...later);
        problem(at, `#${at}: dice epoch ${e} had ended and none of its sealed dice waits to be revealed, but its seed for sealed dice was never published, so they cannot be checked`);
      }
    }
    result.sealedSeedEpochs = Object.keys(sealedCommitments).map(Number);
    const bySeq = Object.fromEntries(rows.map((row) => [row.seq, row.hash]));
    for (const code of checkpoints) {
      // As grimoire reads one: SEQ:HASH, the event number from 1, 8 to 64 hex digits.
      const text = String(code).trim();
      const colon = text.indexOf(":");
      const seqText = colon < 0 ? "" : text.slice(0, colon);
      const prefix = colon < 0 ? "" : text.slice(colon + 1).toLowerCase();
      const seq = /^\+?\d+$/.test(seqText) ? String(BigInt(seqText)) : null;
      if (seq === null || seq === "0" || !/^[0-9a-f]{8,64}$/.test(prefix)) {
        result.checkpoints.push({ checkpoint: code, holds: false, why: "it is not a checkpoint: write SEQ:HASH as grimoire printed it, e.g. 42:9f86d081884c7d65 (8 to 64 hex digits)" });
        continue;
      }
      const found = bySeq[seq];
      const holds = found !== undefined && found.startsWith(prefix);
      result.checkpoints.push({ checkpoint: code, holds, why: found === undefined ? "past the end of the log" : holds ? "" : "the hash there differs" });
    }
    // An answer that records a roll must be used by a die of its command.
    for (const [request, r] of Object.entries(requests)) {
      if (r.answer && !r.answer.refused && !r.answer.claimed) {
        problem(r.answer.seq, `#${r.answer.seq} answers request ${request}, but no die of a command recorded with it claims the answer`);
      }
    }
    result.allHold = result.chainBreak === null && result.problems.length === 0 && result.checkpoints.every((c) => c.holds);
    result.firstProblem = result.chainBreak !== null ? result.chainBreak.seq
      : result.problems.reduce((first, p) => (first === null || p.seq < first ? p.seq : first), null);
    result.rows = rows;
    const first = result.chainBreak || result.problems.find((p) => p.seq === result.firstProblem);
    result.firstWhat = first ? first.what : null;
    return result;
  }

  /** The rolls made after a retracted roll, by seq → the retracted rolls (rules document, C-2):
   * every roll after the retracted one in its session up to its retraction, and the first roll
   * after the retraction. Computed from the rows alone: what a retraction says of marks is ignored. */
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
    if (dice.length === 0) return `#${seq} (${row.kind}) rolled no dice.`;
    const checked = result.rolls[row.seq] || [];
    const lines = [`#${seq} (${row.kind}) rolled ${dice.length} ${dice.length === 1 ? "die" : "dice"}:`];
    for (const die of dice) {
      const source = die.provenance.source;
      const check = checked.find((c) => c.n === die.n);
      const opened = (result.opened[row.seq] || []).find((o) => o.n === die.n);
      let words;
      if (source === "entered") words = "typed in at the table (a physical die: nothing to derive)";
      else if (source === "device" && check) words = `${check.witnessed ? "the GM's roll, witnessed by a player's device" : "rolled on a player's device"} (request ${check.request}): the published secret and the device's bytes give ${check.deviceGives}${check.deviceGives === check.shows ? ", as recorded" : `, but it is recorded as ${check.shows}`}`;
      else if (source === "device") words = `made on a player's device for request ${die.provenance.request}, whose answer the log does not hold before it`;
      else if (source === "sealed" && !opened) words = (die.provenance.origin || {}).source === "seeded"
        ? "sealed: rolled by grimoire from a seed its epoch committed to, and only a commitment until it is revealed"
        : "sealed by the GM: only a commitment until it is revealed";
      else if (source === "sealed" && !opened.committed) words = `sealed, and revealed as ${opened.faces}, which does NOT open its commitment`;
      else if (source === "sealed" && !check) words = `sealed, revealed as ${opened.faces}, which opens its commitment (${(die.provenance.origin || {}).source === "seeded" ? `its epoch's seed${(result.sealedSeedEpochs || []).includes(Number(die.provenance.origin.epoch)) ? " for sealed dice" : ""} is not published yet` : "typed by the GM, so it proves nothing of fairness"})`;
      else if (!check) words = "seeded by grimoire; its epoch's seed is not published yet, so it cannot be checked yet";
      else words = check.shows === check.seedGives || String(check.shows) === String(check.seedGives)
        ? `the published seed gives ${check.seedGives}, as recorded`
        : `recorded as ${check.shows}, but the published seed gives ${check.seedGives}`;
      lines.push(`  die ${die.n}, a d${die.sides}: ${words}`);
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
