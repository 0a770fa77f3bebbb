// Original file: proto/runtime/v1/api.proto

import type { WindowsNamespaceOption as _runtime_v1_WindowsNamespaceOption, WindowsNamespaceOption__Output as _runtime_v1_WindowsNamespaceOption__Output } from '../../runtime/v1/WindowsNamespaceOption.ts';

export interface WindowsSandboxSecurityContext {
  'runAsUsername'?: (string);
  'credentialSpec'?: (string);
  'hostProcess'?: (boolean);
  'namespaceOptions'?: (_runtime_v1_WindowsNamespaceOption | null);
}

export interface WindowsSandboxSecurityContext__Output {
  'runAsUsername': (string);
  'credentialSpec': (string);
  'hostProcess': (boolean);
  'namespaceOptions': (_runtime_v1_WindowsNamespaceOption__Output | null);
}
