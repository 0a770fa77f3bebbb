/**
 * SPDY/3.1 framing (draft 3.1, section 2.2): control frames are `1 | version(15) | type(16) | flags(8) |
 * length(24) | data`, data frames `0 | stream-id(31) | flags(8) | length(24) | data`. Header blocks travel
 * compressed (see header-codec.ts); this module only parses and builds frames, byte for byte.
 */

export const SPDY_VERSION = 3;
export const FLAG_FIN = 0x01;
export const FLAG_UNIDIRECTIONAL = 0x02;
export const SETTINGS_CLEAR = 0x01;
/** SETTINGS ids used here. */
export const SETTINGS_INITIAL_WINDOW_SIZE = 7;
export const DEFAULT_WINDOW = 65_536;

/** RST_STREAM status codes. */
export const RST = { PROTOCOL_ERROR: 1, INVALID_STREAM: 2, REFUSED_STREAM: 3, CANCEL: 5, FLOW_CONTROL_ERROR: 7, STREAM_IN_USE: 8, STREAM_ALREADY_CLOSED: 9 } as const;

const TYPE_CODES = { syn_stream: 1, syn_reply: 2, rst_stream: 3, settings: 4, ping: 6, goaway: 7, headers: 8, window_update: 9 } as const;

export type SpdyFrame =
  | { type: 'data'; streamId: number; fin: boolean; data: Buffer }
  | { type: 'syn_stream'; streamId: number; associatedId: number; priority: number; fin: boolean; unidirectional: boolean; headerBlock: Buffer }
  | { type: 'syn_reply'; streamId: number; fin: boolean; headerBlock: Buffer }
  | { type: 'rst_stream'; streamId: number; status: number }
  | { type: 'settings'; clear: boolean; entries: { flags: number; id: number; value: number }[] }
  | { type: 'ping'; id: number }
  | { type: 'goaway'; lastGoodStreamId: number; status: number }
  | { type: 'headers'; streamId: number; fin: boolean; headerBlock: Buffer }
  | { type: 'window_update'; streamId: number; delta: number }
  | { type: 'unknown'; code: number; flags: number; data: Buffer };

export type ParseResult = { ok: true; frames: SpdyFrame[]; rest: Buffer } | { ok: false; reason: string };

const MASK31 = 0x7fffffff;

/** Parse as many whole frames as `buf` holds; the incomplete tail is returned as `rest`. */
export function parseFrames(buf: Buffer): ParseResult {
  const frames: SpdyFrame[] = [];
  let off = 0;
  while (buf.length - off >= 8) {
    const len = buf.readUInt32BE(off + 4) & 0xffffff;
    if (buf.length - off < 8 + len) break;
    const flags = buf[off + 4]!;
    const body = buf.subarray(off + 8, off + 8 + len);
    if ((buf[off]! & 0x80) === 0) {
      frames.push({ type: 'data', streamId: buf.readUInt32BE(off) & MASK31, fin: (flags & FLAG_FIN) !== 0, data: body });
    } else {
      const version = buf.readUInt16BE(off) & 0x7fff;
      if (version !== SPDY_VERSION) return { ok: false, reason: `unsupported SPDY version ${version}` };
      const f = controlFrame(buf.readUInt16BE(off + 2), flags, body);
      if (!f) return { ok: false, reason: `malformed control frame type ${buf.readUInt16BE(off + 2)}` };
      frames.push(f);
    }
    off += 8 + len;
  }
  return { ok: true, frames, rest: buf.subarray(off) };
}

function controlFrame(code: number, flags: number, b: Buffer): SpdyFrame | undefined {
  const fin = (flags & FLAG_FIN) !== 0;
  const need = (n: number) => b.length >= n;
  switch (code) {
    case 1:
      return need(10)
        ? { type: 'syn_stream', streamId: b.readUInt32BE(0) & MASK31, associatedId: b.readUInt32BE(4) & MASK31, priority: b[8]! >> 5, fin,
            unidirectional: (flags & FLAG_UNIDIRECTIONAL) !== 0, headerBlock: b.subarray(10) }
        : undefined;
    case 2:
      return need(4) ? { type: 'syn_reply', streamId: b.readUInt32BE(0) & MASK31, fin, headerBlock: b.subarray(4) } : undefined;
    case 3:
      return need(8) ? { type: 'rst_stream', streamId: b.readUInt32BE(0) & MASK31, status: b.readUInt32BE(4) } : undefined;
    case 4: {
      if (!need(4)) return undefined;
      const n = b.readUInt32BE(0);
      if (b.length < 4 + 8 * n) return undefined;
      const entries = Array.from({ length: n }, (_, i) => ({
        flags: b[4 + 8 * i]!, id: b.readUInt32BE(4 + 8 * i) & 0xffffff, value: b.readUInt32BE(8 + 8 * i),
      }));
      return { type: 'settings', clear: (flags & SETTINGS_CLEAR) !== 0, entries };
    }
    case 6:
      return need(4) ? { type: 'ping', id: b.readUInt32BE(0) } : undefined;
    case 7:
      return need(8) ? { type: 'goaway', lastGoodStreamId: b.readUInt32BE(0) & MASK31, status: b.readUInt32BE(4) } : undefined;
    case 8:
      return need(4) ? { type: 'headers', streamId: b.readUInt32BE(0) & MASK31, fin, headerBlock: b.subarray(4) } : undefined;
    case 9:
      return need(8) ? { type: 'window_update', streamId: b.readUInt32BE(0) & MASK31, delta: b.readUInt32BE(4) & MASK31 } : undefined;
    default:
      return { type: 'unknown', code, flags, data: b };
  }
}

function control(code: number, flags: number, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8000 | SPDY_VERSION, 0);
  head.writeUInt16BE(code, 2);
  head.writeUInt32BE(body.length, 4);
  head[4] = flags;
  return Buffer.concat([head, body]);
}

function u32s(...values: number[]): Buffer {
  const b = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, 4 * i));
  return b;
}

/** The bytes of one frame. */
export function encodeFrame(f: SpdyFrame): Buffer {
  const fin = 'fin' in f && f.fin ? FLAG_FIN : 0;
  switch (f.type) {
    case 'data': {
      const head = u32s(f.streamId & MASK31, f.data.length);
      head[4] = fin;
      return Buffer.concat([head, f.data]);
    }
    case 'syn_stream': {
      const prio = Buffer.from([(f.priority & 7) << 5, 0]);
      return control(TYPE_CODES.syn_stream, fin | (f.unidirectional ? FLAG_UNIDIRECTIONAL : 0),
        Buffer.concat([u32s(f.streamId, f.associatedId), prio, f.headerBlock]));
    }
    case 'syn_reply':
      return control(TYPE_CODES.syn_reply, fin, Buffer.concat([u32s(f.streamId), f.headerBlock]));
    case 'headers':
      return control(TYPE_CODES.headers, fin, Buffer.concat([u32s(f.streamId), f.headerBlock]));
    case 'rst_stream':
      return control(TYPE_CODES.rst_stream, 0, u32s(f.streamId, f.status));
    case 'settings': {
      const body = u32s(f.entries.length, ...f.entries.flatMap((e) => [((e.flags & 0xff) << 24) | (e.id & 0xffffff), e.value]));
      return control(TYPE_CODES.settings, f.clear ? SETTINGS_CLEAR : 0, body);
    }
    case 'ping':
      return control(TYPE_CODES.ping, 0, u32s(f.id));
    case 'goaway':
      return control(TYPE_CODES.goaway, 0, u32s(f.lastGoodStreamId, f.status));
    case 'window_update':
      return control(TYPE_CODES.window_update, 0, u32s(f.streamId, f.delta));
    case 'unknown':
      return control(f.code, f.flags, f.data);
  }
}
