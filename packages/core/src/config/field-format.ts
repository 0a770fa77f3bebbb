/**
 * The API server's value-format checks (k8s.io/apimachinery/pkg/util/validation, v1.28) and the way a field
 * error prints its value (field.Error.ErrorBody): each returns the messages the API server would give, empty
 * when the value is valid.
 */
import { isIP } from 'node:net';
import { quote } from './meta-validation.ts';

/** validation.RegexError: the message, examples and the regex, as the API server spells them. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  const eg = examples.length ? ` (e.g. ${examples.map((e) => `'${e}'`).join(',  or ')}, ` : ' (';
  return `${msg}${eg}regex used for validation is '${fmt}')`;
}

/** validation.InclusiveRangeError. */
export const inclusiveRange = (lo: number, hi: number) => `must be between ${lo} and ${hi}, inclusive`;

/** validation.IsValidPortNum. */
export function portNumMessages(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRange(1, 65535)];
}

/** validation.IsValidPortName (an IANA_SVC_NAME). */
export function portNameMessages(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.startsWith('-') || port.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** validation.hasChDirPrefix. */
function chDirPrefix(v: string): string[] {
  if (v === '.') return [`must not be '.'`];
  if (v === '..') return [`must not be '..'`];
  return v.startsWith('..') ? [`must not start with '..'`] : [];
}

const ENV_VAR_NAME = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const ENV_VAR_NAME_RE = new RegExp(`^${ENV_VAR_NAME}$`);
/** validation.IsEnvVarName. */
export function envVarNameMessages(v: string): string[] {
  const errs = ENV_VAR_NAME_RE.test(v)
    ? []
    : [
        regexError(
          "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
          ENV_VAR_NAME,
          'my.env-name',
          'MY_ENV.NAME',
          'MyEnvName1',
        ),
      ];
  return [...errs, ...chDirPrefix(v)];
}

const CONFIG_KEY = '[-._a-zA-Z0-9]+';
const CONFIG_KEY_RE = new RegExp(`^${CONFIG_KEY}$`);
/** validation.IsConfigMapKey. */
export function configMapKeyMessages(v: string): string[] {
  const errs = v.length > 253 ? ['must be no more than 253 characters'] : [];
  if (!CONFIG_KEY_RE.test(v)) {
    errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_KEY, 'key.name', 'KEY_NAME', 'key-name'));
  }
  return [...errs, ...chDirPrefix(v)];
}

const HTTP_HEADER = '[-A-Za-z0-9]+';
const HTTP_HEADER_RE = new RegExp(`^${HTTP_HEADER}$`);
/** validation.IsHTTPHeaderName. */
export function httpHeaderNameMessages(v: string): string[] {
  return HTTP_HEADER_RE.test(v)
    ? []
    : [regexError("a valid HTTP header must consist of alphanumeric characters or '-'", HTTP_HEADER, 'X-Header-Name')];
}

/** netutils.ParseIPSloppy: Go's parser, which also takes IPv4 octets with leading zeros. */
function parseIpSloppy(v: string): boolean {
  if (isIP(v) !== 0) return true;
  const parts = v.split('.');
  return parts.length === 4 && parts.every((p) => /^[0-9]{1,3}$/.test(p) && Number(p) <= 255);
}

/** validation.IsValidIP (v1.28): the field error lines for `path`. */
export function validIp(path: string, v: string): string[] {
  return parseIpSloppy(v) ? [] : [`${path}: Invalid value: ${quote(v)}: must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`];
}

/** validation.IsValidUserID / IsValidGroupID. */
export function idMessages(id: number): string[] {
  return Number.isInteger(id) && id >= 0 && id <= 2147483647 ? [] : [inclusiveRange(0, 2147483647)];
}

/** field.NotSupported's list: each value quoted, comma-separated. */
export function supportedValues(values: readonly string[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

/** `<path>: Unsupported value: "v": supported values: …`. */
export function notSupported(path: string, v: unknown, values: readonly string[]): string {
  return `${path}: Unsupported value: ${quote(v)}: supported values: ${supportedValues(values)}`;
}

/**
 * A []string as the API server prints it in a field error (Go's %#v). A long list is cut after 8 items (each
 * item as quote() cuts it) so a manifest with thousands of search domains never makes a megabyte log line.
 */
export function goStrings(v: readonly string[]): string {
  const shown = v.slice(0, 8).map((s) => quote(s));
  if (v.length > 8) shown.push(`... (${v.length} items)`);
  return `[]string{${shown.join(', ')}}`;
}
