// bench/pod-item: one pod of a GET /pods body, without parsing the whole body. The exit bench's poller asks /pods
// every 5 ms while the agent handles the exit on the same two cores: JSON.parse of the 160 KB PodList (110 pods) took
// 1.2–1.4 ms of CPU a poll, this scan for the one pod's element 0.4 ms (1 000 polls of a 110-pod list in one process).
// Plain JavaScript: the poller's worker thread has no tsx loader (types: pod-item.d.mts).

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The element of the body's top-level "items" array whose metadata.name is `name`, parsed; undefined when none is.
 * @param {Buffer} body a PodList as JSON
 * @param {string} name
 * @returns {any}
 */
export function podItem(body, name) {
  const key = Buffer.from(`"name":${JSON.stringify(name)}`);
  const items = body.indexOf('"items":[');
  if (items < 0) return undefined;
  let at = body.indexOf(key, items);
  while (at >= 0) {
    const el = elementAround(body, items + '"items":['.length, at);
    if (!el) return undefined;
    const pod = JSON.parse(el.toString('utf8'));
    if (pod?.metadata?.name === name) return pod;
    at = body.indexOf(key, at + key.length);
  }
  return undefined;
}

/**
 * The array element (from `from`, just inside the array's '[') that holds byte `at`: a scan of the bytes keeping the
 * nesting depth, strings skipped (a brace or bracket inside a string is text; \" does not end one). Structural
 * characters are ASCII, never part of a UTF-8 sequence, so bytes serve.
 * @param {Buffer} b @param {number} from @param {number} at
 */
function elementAround(b, from, at) {
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = from; i < b.length; i++) {
    const c = b[i];
    if (inString) {
      // To the string's closing quote at once (indexOf is native): one preceded by an odd run of backslashes is text.
      let q = b.indexOf(QUOTE, i);
      for (;;) {
        if (q < 0) return undefined;
        let k = q - 1;
        while (k >= i && b[k] === BACKSLASH) k--;
        if ((q - 1 - k) % 2 === 0) break;
        q = b.indexOf(QUOTE, q + 1);
      }
      i = q;
      inString = false;
      continue;
    }
    if (c === QUOTE) {
      inString = true;
      if (depth === 0) start = i;
    } else if (c === 0x7b || c === 0x5b) {
      if (depth === 0) start = i;
      depth++;
    } else if (c === 0x7d || c === 0x5d) {
      if (depth === 0) return undefined; // the array ended before `at`
      depth--;
      if (depth === 0 && i >= at) return b.subarray(start, i + 1);
    }
  }
  return undefined;
}
