/** The shape of one command-line flag (flag-specs.ts lists them; each *-config.ts declares its own). */

/** 'map<' / 'map=': the kubelet's map flags ("a<b,c<d", "a=b,c=d"); 'strings': a comma-separated list. */
export type FlagKind = 'string' | 'bool' | 'int' | 'duration' | 'map<' | 'map=' | 'strings';

/** K: the settings fields the flag may set (the declaring file's config keys; all settings in flag-specs.ts). */
export interface FlagSpec<K extends string = string> {
  name: string;
  kind: FlagKind;
  /** The settings field this flag sets (absent: handled by the parser itself, like --config). */
  key?: K;
  help: string;
  /** Shown in --help. */
  defaultText?: string;
}
