/** One field error line of the API server's validation, split as its Status causes carry it. */
import type { FieldError } from './pod-rules.ts';

/** field.ErrorType (k8s.io/apimachinery/pkg/util/validation/field) by the words its ErrorBody starts with. */
const ERROR_TYPES: Record<string, string> = {
  'Not found': 'FieldValueNotFound',
  'Required value': 'FieldValueRequired',
  'Duplicate value': 'FieldValueDuplicate',
  'Invalid value': 'FieldValueInvalid',
  'Unsupported value': 'FieldValueNotSupported',
  Forbidden: 'FieldValueForbidden',
  'Too long': 'FieldValueTooLong',
  'Too many': 'FieldValueTooMany',
  'Internal error': 'InternalError',
};
const LINE = new RegExp(`^(.*?): (${Object.keys(ERROR_TYPES).join('|')})(?=:|$)`, 's');

/** `spec.x: Invalid value: "v": why` → { field: 'spec.x', type: 'FieldValueInvalid', message: 'Invalid value: "v": why' }. */
export function fieldError(line: string): FieldError {
  const m = LINE.exec(line);
  if (!m) return { field: '', type: 'FieldValueInvalid', message: line };
  const field = m[1] as string;
  return { field, type: ERROR_TYPES[m[2] as string] as string, message: line.slice(field.length + 2) };
}
