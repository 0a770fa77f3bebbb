/**
 * The kubelet's plugin manager names and shapes (pkg/kubelet/pluginmanager, v1.28): the registry directory,
 * the plugin types of pluginregistration/v1, the handler a component (the device manager, CSI, DRA) registers
 * for its type, and the timeouts of the registration calls.
 */

/** `<root-dir>/plugins_registry` (kubelet's getPluginsRegistrationDir). */
export const PLUGINS_REGISTRY_DIR = 'plugins_registry';

/** pluginregistration/v1 constants.go. */
export const CSI_PLUGIN = 'CSIPlugin';
export const DEVICE_PLUGIN = 'DevicePlugin';
export const DRA_PLUGIN = 'DRAPlugin';

/** reconciler loopSleepDuration. */
export const RECONCILE_PERIOD_MS = 1_000;

/** operation_generator.go: dialTimeoutDuration, the GetInfo context (1 s) and notifyTimeoutDuration. */
export interface RegistrationTimeouts {
  dialMs: number;
  getInfoMs: number;
  notifyMs: number;
}
export const REGISTRATION_TIMEOUTS: RegistrationTimeouts = { dialMs: 10_000, getInfoMs: 1_000, notifyMs: 5_000 };

/** goroutinemap's exponential backoff after a failed operation on a socket: 500 ms doubling to 2 min 2 s. */
export const OPERATION_BACKOFF = { initialMs: 500, maxMs: 122_000 };

/**
 * cache.PluginHandler: what a component implements for its plugin type. Errors are thrown (rejected) with the
 * component's message; the manager wraps them in the kubelet's RegisterPlugin text.
 */
export interface PluginHandler {
  validatePlugin(name: string, endpoint: string, versions: string[]): void | Promise<void>;
  registerPlugin(name: string, endpoint: string, versions: string[]): Promise<void>;
  /** The plugin's socket went away (or was re-created: a restart). `endpoint` is what registerPlugin got. */
  deRegisterPlugin(name: string, endpoint: string): void;
}

/** A socket in the desired state of the world; `generation` changes each time the socket is (re)created. */
export interface DesiredPlugin {
  socketPath: string;
  /** When the watcher saw the socket appear (clock ms). */
  timestamp: number;
  generation: number;
}

/** A plugin in the actual state of the world (registered, or being registered). */
export interface RegisteredPlugin extends DesiredPlugin {
  handler: PluginHandler;
  type: string;
  name: string;
  endpoint: string;
}

/** The pluginregistration.PluginInfo a plugin answers GetInfo with. */
export interface PluginInfoMessage {
  type: string;
  name: string;
  endpoint: string;
  supportedVersions: string[];
}

/** The kubelet's side of one plugin's Registration service (grpc in registration-client.ts; fakes in tests). */
export interface RegistrationClient {
  getInfo(timeoutMs: number): Promise<PluginInfoMessage>;
  notifyRegistrationStatus(registered: boolean, error: string, timeoutMs: number): Promise<void>;
  close(): void;
}

/**
 * A registration the plugin manager refused before any handler took the plugin: the socket could not be dialled,
 * GetInfo failed (or timed out), no handler for the type, or the handler's ValidatePlugin said no. `message` is the
 * kubelet's text (what the plugin reads in NotifyRegistrationStatus, or the log's); `type` and `name` are known
 * once GetInfo answered. A failing RegisterPlugin is the handler's to report (the device manager's bus events).
 */
export interface PluginRefusal {
  socketPath: string;
  type?: string;
  name?: string;
  message: string;
}

/** Dials a plugin's registration socket; rejects with the dial error's text after timeoutMs. */
export type DialPlugin = (socketPath: string, timeoutMs: number) => Promise<RegistrationClient>;
