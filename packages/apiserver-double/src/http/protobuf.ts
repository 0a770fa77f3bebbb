/**
 * Request bodies in the Kubernetes protobuf encoding (`application/vnd.kubernetes.protobuf`: "k8s\0" + a
 * runtime.Unknown holding TypeMeta and the object's bytes), decoded into the JSON shape — for the kinds a client
 * is known to send this way to the double: CertificateSigningRequest (kubectl certificate approve|deny PUT
 * /approval with kubectl's protobuf clientset). Field numbers are k8s.io/api certificates/v1 and apimachinery
 * meta/v1 generated.proto. Any other kind → undefined (the caller answers 415).
 */
type Field = { no: number; wire: number; bytes: Buffer; num: bigint };

function varint(buf: Buffer, at: number): [bigint, number] {
  let v = 0n;
  let shift = 0n;
  for (;;) {
    const b = buf[at++];
    if (b === undefined) throw new Error('truncated varint');
    v |= BigInt(b & 0x7f) << shift;
    if (b < 0x80) return [v, at];
    shift += 7n;
  }
}

/** The fields of one message, in wire order. */
function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let at = 0;
  while (at < buf.length) {
    const [key, next] = varint(buf, at);
    at = next;
    const wire = Number(key & 7n);
    const no = Number(key >> 3n);
    if (wire === 0) {
      const [num, n2] = varint(buf, at);
      out.push({ no, wire, bytes: Buffer.alloc(0), num });
      at = n2;
    } else if (wire === 2) {
      const [len, n2] = varint(buf, at);
      const end = n2 + Number(len);
      if (end > buf.length) throw new Error('truncated field');
      out.push({ no, wire, bytes: buf.subarray(n2, end), num: 0n });
      at = end;
    } else if (wire === 1 || wire === 5) {
      at += wire === 1 ? 8 : 4;
    } else throw new Error(`unsupported wire type ${wire}`);
  }
  return out;
}

const str = (f: Field) => f.bytes.toString('utf8');
const all = (fs: Field[], no: number) => fs.filter((f) => f.no === no);
const one = (fs: Field[], no: number) => fs.filter((f) => f.no === no).at(-1);

function put(o: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0)) o[key] = value;
}

/** meta/v1 Time {seconds, nanos} → RFC 3339 (second precision, as metav1.Time marshals). */
function time(f: Field | undefined): string | undefined {
  // An empty Time message is Go's zero time (omitted in JSON), as metav1.Time's Unmarshal reads it.
  if (!f || f.bytes.length === 0) return undefined;
  const seconds = one(fields(f.bytes), 1)?.num ?? 0n;
  return new Date(Number(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function stringMap(fs: Field[], no: number): Record<string, string> | undefined {
  const entries = all(fs, no).map((e) => fields(e.bytes));
  if (!entries.length) return undefined;
  return Object.fromEntries(entries.map((e) => [one(e, 1) ? str(one(e, 1)!) : '', one(e, 2) ? str(one(e, 2)!) : '']));
}

function objectMeta(buf: Buffer): Record<string, unknown> {
  const fs = fields(buf);
  const m: Record<string, unknown> = {};
  const s = (no: number) => (one(fs, no) ? str(one(fs, no)!) : undefined);
  put(m, 'name', s(1));
  put(m, 'generateName', s(2));
  put(m, 'namespace', s(3));
  put(m, 'uid', s(5));
  put(m, 'resourceVersion', s(6));
  if (one(fs, 7)) m.generation = Number(one(fs, 7)!.num);
  put(m, 'creationTimestamp', time(one(fs, 8)));
  put(m, 'deletionTimestamp', time(one(fs, 9)));
  if (one(fs, 10)) m.deletionGracePeriodSeconds = Number(one(fs, 10)!.num);
  put(m, 'labels', stringMap(fs, 11));
  put(m, 'annotations', stringMap(fs, 12));
  put(m, 'finalizers', all(fs, 14).map(str));
  return m;
}

function csrSpec(buf: Buffer): Record<string, unknown> {
  const fs = fields(buf);
  const spec: Record<string, unknown> = {};
  if (one(fs, 1)) spec.request = one(fs, 1)!.bytes.toString('base64');
  put(spec, 'signerName', one(fs, 7) ? str(one(fs, 7)!) : undefined);
  if (one(fs, 8)) spec.expirationSeconds = Number(BigInt.asIntN(32, one(fs, 8)!.num));
  put(spec, 'usages', all(fs, 5).map(str));
  put(spec, 'username', one(fs, 2) ? str(one(fs, 2)!) : undefined);
  put(spec, 'uid', one(fs, 3) ? str(one(fs, 3)!) : undefined);
  put(spec, 'groups', all(fs, 4).map(str));
  const extra = all(fs, 6).map((e) => fields(e.bytes));
  if (extra.length)
    spec.extra = Object.fromEntries(extra.map((e) => [one(e, 1) ? str(one(e, 1)!) : '', one(e, 2) ? all(fields(one(e, 2)!.bytes), 1).map(str) : []]));
  return spec;
}

function csrStatus(buf: Buffer): Record<string, unknown> {
  const fs = fields(buf);
  const status: Record<string, unknown> = {};
  const conditions = all(fs, 1).map((c) => {
    const cf = fields(c.bytes);
    const o: Record<string, unknown> = {};
    const s = (no: number) => (one(cf, no) ? str(one(cf, no)!) : undefined);
    put(o, 'type', s(1));
    put(o, 'status', s(6));
    put(o, 'reason', s(2));
    put(o, 'message', s(3));
    put(o, 'lastUpdateTime', time(one(cf, 4)));
    put(o, 'lastTransitionTime', time(one(cf, 5)));
    return o;
  });
  put(status, 'conditions', conditions);
  if (one(fs, 2)) status.certificate = one(fs, 2)!.bytes.toString('base64');
  return status;
}

/** The JSON form of a protobuf-encoded body, or undefined when its kind is not one the double decodes. */
export function decodeProtobufObject(body: Buffer): Record<string, unknown> | undefined {
  if (body.subarray(0, 4).toString('binary') !== 'k8s\0') return undefined;
  const unknown = fields(body.subarray(4));
  const typeMeta = one(unknown, 1) ? fields(one(unknown, 1)!.bytes) : [];
  const apiVersion = one(typeMeta, 1) ? str(one(typeMeta, 1)!) : '';
  const kind = one(typeMeta, 2) ? str(one(typeMeta, 2)!) : '';
  if (apiVersion !== 'certificates.k8s.io/v1' || kind !== 'CertificateSigningRequest') return undefined;
  const raw = fields(one(unknown, 2)?.bytes ?? Buffer.alloc(0));
  return {
    apiVersion,
    kind,
    metadata: one(raw, 1) ? objectMeta(one(raw, 1)!.bytes) : {},
    spec: one(raw, 2) ? csrSpec(one(raw, 2)!.bytes) : {},
    status: one(raw, 3) ? csrStatus(one(raw, 3)!.bytes) : {},
  };
}
