  function verify(text, checkpoints = []) {
    // Lines as grimoire's import takes them: blank ones (JSON's spaces only) between lines, and
    // each other line an event or a secret.
    const lines = text.split("\n").filter((line) => !/^[ \t\r]*$/.test(line));
    const result = {
      events: 0, chainBreak: null, seededChecked: 0, seededAwaiting: 0, sealedChecked: 0,
      sealedAwaiting: 0, deviceChecked: 0, witnessedChecked: 0, deviceInRules: 0, problems: [], checkpoints: [],
      rolls: {}, opened: {}, head: null, putAgain: 0, putAgainAfter: {}, derivations: {},
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
        : numberProblem(kind, payload) || fieldsProblem(kind, payload);
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
    const checkFreeRoll = (seq, version, roll, dice) => {
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
      } else {
        // A sealed roll's faces are hidden, not its dice: a die of other sides than the
        // expression rolls is one the GM chose, its face with it.
        const sizes = dieSizes(roll.expression);
        const fits = sizes !== null && (sizes.openEnded && version < SEALED_WHOLE_SINCE
          ? dice.every((d) => sizes.each.includes(d.sides))
          : sizes.sealed.length === dice.length && dice.every((d, i) => d.sides === sizes.sealed[i]));
        if (!fits) problem(seq, `#${seq}: its dice are not the dice its expression ${roll.expression} rolls`);
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
    const PLAYERS_KINDS = new Set(["device_linked", "device_unlinked", "roll_requested", "roll_answered", "roll_withdrawn", "choice_answered"]);
    // The devices linked (C-4), by number: the characters each plays and whether its link stands;
    // and what was withdrawn from each since a roll was last put to it.
    const devices = {};
    const withdrawnFrom = {};
    // A phone's choice whose command's event the next row must be.
    let choiceDue = null;
    // The second derivation's roll numbers (README, step 5): 0, 1, 2, … in log order per epoch.
    const rolls = { counts: false, next: 0, draws: new Set(), last: null, run: [0, ""] };
    const closeRoll = () => {
      const draws = [...rolls.draws].sort((a, b) => a - b);
      rolls.draws = new Set();
      if (rolls.last === null) return;
      if (draws.some((n, i) => n !== i)) {
        const which = rolls.counts ? `roll ${rolls.next - 1}` : `#${rolls.last.seq}'s command`;
        problem(rolls.last.seq, `#${rolls.last.seq}: the seeded dice of ${which} of epoch ${epoch} are not numbered 0 to ${draws.length - 1} in draw order: a die was taken from another place of the derivation`);
      }
      rolls.last = null;
    };
    // Every grimoire writing payload version 3 or later named each epoch's derivation: an epoch
    // of such a row without one was written by hand, its dice bound to nothing but the seq.
    const DERIVATION_NAMED_SINCE = 3;
    const startEpoch = (seq, version, number, derivation) => {
      closeRoll();
      if ((derivation === undefined || derivation === null) && version >= DERIVATION_NAMED_SINCE) {
        problem(seq, `#${seq}: dice epoch ${number} names no derivation, which every grimoire writing payload version ${DERIVATION_NAMED_SINCE} or later names`);
      }
      rolls.counts = derivation !== undefined && derivation !== null;
      rolls.next = 0;
    };
    const seededEpoch = (die) => {
      const p = die.provenance;
      if (p.source === "seeded") return p.epoch;
      const origin = originOf(die);
      if (origin !== null && origin.source === "seeded") return origin.epoch;
      return undefined;
    };
    // A roll number absent or null alike, as grimoire reads it.
    const rollOf = (die) => (seededPartOf(die) || {}).roll ?? undefined;
    // The events that claim an answer's dice are the ones its command records (C-5): a free
    // roll's are all in one dice_rolled event, which holds no other die; a system command's are in
    // events of that system. The GM's server knows the phone's bytes before it writes the dice:
    // an event slipped in before the roll, spending the answer's first dice, would let the roll
    // take a later die with the face it wanted.
    const kindSystems = new Map(Object.entries(GRIMOIRE_KIND_SYSTEMS));
    const checkRequestClaims = (seq, kind, dice) => {
      const claimed = [];
      for (const die of dice) {
        if (die.provenance.source === "device" && !claimed.includes(die.provenance.request)) claimed.push(die.provenance.request);
      }
      for (const request of claimed) {
        const r = requests[request];
        // A die claiming a request never made or answered says so itself.
        if (!r || !r.answer) continue;
        if (r.answer.claimedBy === undefined) r.answer.claimedBy = seq;
        const asked = r.asked;
        if (asked.command === "roll") {
          if (kind !== "dice_rolled") problem(seq, `#${seq}: request ${request} asked for a free roll, and a '${kind}' event claims its dice`);
          else if (r.answer.claimedBy !== seq) problem(seq, `#${seq}: request ${request}'s roll is recorded already, by #${r.answer.claimedBy}`);
          else if (dice.some((d) => d.provenance.source !== "device" || d.provenance.request !== request)) {
            problem(seq, `#${seq}: the roll made for request ${request} holds a die its answer did not make`);
          }
        } else if (asked.command === "system" && kindSystems.get(kind) !== asked.system) {
          problem(seq, `#${seq}: request ${request} asked for a command of the ${asked.system} rules, and a '${kind}' event claims its dice`);
        }
      }
    };
    const checkRollNumbers = (row, recordedAt) => {
      const seq = row.seq;
      if (rolls.run[1] !== recordedAt) rolls.run = [rolls.run[0] + 1, recordedAt];
      const seeded = diceOf(row.kind, row.payload).filter((d) => seededEpoch(d) === epoch);
      // Only a scroll written in a downtime span follows another event of its command and shares
      // its draws (and its roll), in the same run of rows recorded at one moment. Any other event
      // begins a command, dice or not: a scroll whose downtime drew no die shares nothing with a
      // roll made before it in the same second.
      const continues = row.kind === "scroll_written" && row.payload.in_downtime === true;
      if (!continues) closeRoll();
      if (seeded.length === 0) return;
      const noteDraws = (of) => {
        rolls.last = { seq, run: rolls.run[0] };
        for (const die of seeded) {
          if (rolls.draws.has(die.n)) problem(seq, `#${seq}: die ${die.n} of ${of} was drawn before`);
          rolls.draws.add(die.n);
        }
      };
      if (!rolls.counts) {
        if (seeded.some((d) => rollOf(d) !== undefined)) {
          problem(seq, `#${seq}: its seeded dice carry a roll number, but epoch ${epoch} binds its dice to their event's seq`);
          return;
        }
        // Bound to the seq, a command's seeded dice are still numbered 0 to k - 1 in draw order,
        // on across its events.
        if (!(continues && rolls.last !== null && rolls.last.run === rolls.run[0])) closeRoll();
        noteDraws(`#${seq}'s command`);
        return;
      }
      const numbers = new Set(seeded.map(rollOf));
      const roll = [...numbers][0];
      if (numbers.size !== 1 || roll === undefined) {
        problem(seq, `#${seq}: its seeded dice do not all carry one roll number, as every seeded die of epoch ${epoch} must`);
        return;
      }
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
      noteDraws(`roll ${roll}`);
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
      // The row after a phone's choice is the event its command records, for the same character
      // and the same picks.
      if (choiceDue !== null) {
        const due = choiceDue;
        choiceDue = null;
        const chosen = Array.isArray(p.chosen) ? p.chosen.filter((c) => typeof c === "string") : [];
        const character = typeof p.character === "string" ? p.character : "";
        const records = row.kind === due.made && foldName(character) === foldName(due.character)
          && JSON.stringify(chosen) === JSON.stringify(due.picks);
        if (!records) problem(seq, `#${seq} does not record the choice made on device ${due.device} at #${due.seq} (${due.character} picked ${due.picks.join(", ")})`);
      }
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
      // The players' events are the record of how dice were made, never retracted (C-5).
      if (row.kind === "retracted" && PLAYERS_KINDS.has(kindBySeq[p.seq])) {
        problem(seq, `#${seq} retracts #${p.seq}, a players' event (a link, request, answer, withdrawal or choice), which grimoire never retracts`);
      }
      checkRollNumbers(row, JSON.parse(row.raw.recorded_at));
      if (row.kind === "campaign_created") {
        campaignId = p.campaign_id;
        commitments[1] = p.seed_commitment;
        epochBegan[1] = Number(seq);
        noteSealedCommitment(1, p, version);
        startEpoch(seq, version, 1, p.derivation);
      } else if (row.kind === "epoch_started") {
        startEpoch(seq, version, p.epoch, p.derivation);
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
        devices[p.device] = { plays: Array.isArray(p.characters) ? p.characters : [], linked: true, player: typeof p.player === "string" ? p.player : "" };
      } else if (row.kind === "device_unlinked") {
        if (devices[p.device]) devices[p.device].linked = false;
      } else if (row.kind === "roll_requested") {
        const next = Math.max(0, ...Object.keys(requests).map(Number)) + 1;
        requests[p.request] = { seq, device: p.device, commitment: p.commitment, witnessed: p.witnessed === true, asked: p.asked || {}, answer: null, withdrawn: false };
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
        else {
          r.answer = { run: rolls.run[0], secret: p.secret, contribution: p.contribution, seq, refused: p.refused !== undefined && p.refused !== null, claimed: false };
          // Refused, it recorded no roll: the next put to the device is a roll put again, and so
          // is one put to it already and still waiting (its refusal recorded after it was put).
          if (r.answer.refused) {
            (withdrawnFrom[r.device] = withdrawnFrom[r.device] || []).push(p.request);
            for (const [number, again] of Object.entries(requests)) {
              if (Number(number) > p.request && again.device === r.device && !again.answer && !again.withdrawn) {
                if (result.putAgainAfter[again.seq]) result.putAgainAfter[again.seq].push(p.request);
                else { result.putAgainAfter[again.seq] = [p.request]; result.putAgain++; }
              }
            }
          }
        }
      } else if (row.kind === "choice_answered") {
        // A player's own choice (#47): on a device whose link stands, for a character its player
        // plays. It brings no dice of its own.
        const device = devices[p.device];
        const asked = p.asked || {};
        const acting = actingCharacter(asked);
        const command = asked.command === "system" && typeof asked.system === "string"
          && Object.prototype.hasOwnProperty.call(GRIMOIRE_CHOICE_COMMANDS, asked.system)
          ? GRIMOIRE_CHOICE_COMMANDS[asked.system] : null;
        const choosing = command !== null && command.path === asked.path;
        let actor = "";
        try { actor = String(JSON.parse(row.raw.actor)); } catch (e) { actor = ""; }
        if (device === undefined) problem(seq, `#${seq}: a choice is made on device ${p.device}, which was never linked`);
        else if (!device.linked) problem(seq, `#${seq}: a choice is made on device ${p.device}, whose link was revoked`);
        else if (!choosing) problem(seq, `#${seq}: what device ${p.device} answers is not its system's choice command`);
        else if (acting === null) problem(seq, `#${seq}: the choice made on device ${p.device} names no character who acts`);
        else if (!device.plays.some((name) => foldName(name) === foldName(acting))) {
          problem(seq, `#${seq}: a choice made on device ${p.device} is for ${acting}, whom its player does not play (${device.plays.join(", ")})`);
        } else if (foldName(actor) !== foldName(device.player)) {
          problem(seq, `#${seq}: a choice made on device ${p.device} is recorded by ${actor}, not by its player ${device.player}`);
        } else {
          const picks = asked.given && Array.isArray(asked.given[command.picks]) ? asked.given[command.picks] : [];
          choiceDue = { seq, device: p.device, character: acting, picks, made: command.made };
        }
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
        else if (kindBySeq[p.seq] === "amended") problem(seq, `#${seq} amends #${p.seq}, itself an amendment, which grimoire never amends`);
        else if (PLAYERS_KINDS.has(kindBySeq[p.seq])) problem(seq, `#${seq} amends #${p.seq}, a players' event (a link, request, answer, withdrawal or choice), which grimoire never amends`);
        else if (amendedKind !== kindBySeq[p.seq]) problem(seq, `#${seq} amends #${p.seq}, a '${kindBySeq[p.seq]}' event, with a '${amendedKind}' event`);
        else if (!sameDice(original, diceOf(amendedKind, p.event))) {
          problem(seq, `#${seq} amends #${p.seq} with dice other than the ones #${p.seq} rolled`);
        } else if (version >= ANSWERED_ROLL_FINAL_SINCE && original.some((d) => d.provenance.source === "device")) {
          // An answered roll is final (C-5): no grimoire writing this version amended one.
          problem(seq, `#${seq} amends #${p.seq}, whose dice a player's device made: an answered roll is final, and grimoire never amends one`);
        }
      }
      const dice = diceOf(row.kind, p);
      diceBySeq[seq] = dice;
      kindBySeq[seq] = row.kind;
      checkRequestClaims(seq, row.kind, dice);
      if (row.kind === "dice_rolled") {
        checkFreeRoll(seq, version, p, dice);
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
        checkFreeRoll(seq, version, p.event, Array.isArray(p.event.dice) ? p.event.dice : []);
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
        const dieEntropy = (witnessOf(die) || {}).entropy ?? entropy;
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
          // The answer's dice are numbered 0, 1, 2, … in draw order, on across the command's
          // events: another `n` is another face of the same secret and bytes, which the GM's
          // server, knowing both, could choose.
          const next = r.answer.diceClaimed || 0;
          r.answer.diceClaimed = next + 1;
          if (die.n !== next) { problem(seq, `#${seq}: die ${die.n} of request ${request} should be its die ${next} in draw order: a die was taken from another place of the derivation`); continue; }
          const face = seededFace(unhex(r.answer.secret), `grimoire-device-die-v1|${request}|${die.n}|{BLOCK}|${r.answer.contribution}`, die.sides);
          (result.rolls[seq] = result.rolls[seq] || []).push({ n: die.n, sides: die.sides, shows: die.value, deviceGives: face, request, witnessed: claims });
          if (face !== die.value) { problem(seq, `#${seq}: die ${die.n} shows ${die.value ?? "nothing"}, but request ${request}'s secret and the device's bytes give ${face}`); continue; }
          if (claims) result.witnessedChecked++; else result.deviceChecked++;
          // A rule system's command: the faces are the phone's, but which of the answer's dice
          // each rule took is the server's word (neither checker decides the command again).
          if (r.asked.command === "system") result.deviceInRules++;
        } else if (source === "seeded") {
          const seed = seedFor(die.provenance.epoch);
          if (die.provenance.epoch !== epoch) {
            problem(seq, `#${seq}: die ${die.n} claims epoch ${die.provenance.epoch} but the log was in epoch ${epoch}`);
            continue;
          }
          // How the die is derived, said whether or not its seed is out: a player can check it
          // by hand once it is.
          (result.derivations[seq] = result.derivations[seq] || []).push({
            n: die.n, epoch, roll: rollOf(die), entropy: dieEntropy,
            by: (witnessOf(die) || {}).by,
            message: dieMessage(campaignId, epoch, die, seq, die.n, dieEntropy).replace("{BLOCK}", "0"),
          });
          if (!isHex(seed, 64)) { result.seededAwaiting++; continue; }
          result.seededChecked++;
          const face = seededFace(unhex(seed), dieMessage(campaignId, epoch, die, seq, die.n, dieEntropy), die.sides);
          (result.rolls[seq] = result.rolls[seq] || []).push({ n: die.n, sides: die.sides, shows: die.value, seedGives: face });
          if (face !== die.value) problem(seq, `#${seq}: seeded die ${die.n} shows ${die.value} but the revealed seed gives ${face}`);
        } else if (source === "sealed") {
          if (sealedMet[`${seq}:${die.n}`] === undefined) sealedMet[`${seq}:${die.n}`] = false;
          const origin = originOf(die) || {};
          if (origin.source === "seeded") {
            sealedEpochOf[`${seq}:${die.n}`] = origin.epoch;
            // As a seeded die does, a sealed one rolled from a seed names the epoch the log is in.
            if (origin.epoch !== epoch) {
              problem(seq, `#${seq}: sealed die ${die.n} claims epoch ${origin.epoch} but the log was in epoch ${epoch}`);
              continue;
            }
          }
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
    // A phone's choice that is the log's last row recorded nothing of what it chose.
    if (choiceDue !== null) problem(choiceDue.seq, `#${choiceDue.seq}: the choice made on device ${choiceDue.device} is followed by nothing that records it`);
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
