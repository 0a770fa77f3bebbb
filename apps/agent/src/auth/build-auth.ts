/**
 * The 10250 auth filter's pieces from the configuration: AlwaysAllow or the SAR webhook; the TokenReview webhook;
 * the console token (read or created at start).
 */
import type { ApiClient } from '@nodelet/core/apiclient';
import type { Clock, Logger } from '@nodelet/core/util';
import { join } from 'node:path';
import { CONSOLE_TOKEN_FILE_NAME } from '../config/http-config.ts';
import type { AgentConfig } from '../config/types.ts';
import { createAuthorizer, type Authorizer, type BearerAuthenticator, type GuardOptions } from '../servers/auth.ts';
import type { HttpLimits } from '../servers/limits.ts';
import { CONSOLE_USER, consoleTokenMatcher, ensureConsoleToken } from './console-token.ts';
import { createTokenWebhook, createWebhookAuthorizer } from './webhook.ts';

export function buildAuth(c: AgentConfig, client: ApiClient | undefined, clock: Clock, logger: Logger): { authorizer: Authorizer; tokens?: BearerAuthenticator } {
  const authorizer =
    c.authorizationMode === 'Webhook' && client
      ? createWebhookAuthorizer({ client, clock, logger }, { allowedMs: c.authorizationWebhookCacheAuthorizedTtlMs, deniedMs: c.authorizationWebhookCacheUnauthorizedTtlMs })
      : createAuthorizer(c.authorizationMode);
  if (!c.authenticationTokenWebhook || !client) return { authorizer };
  return { authorizer, tokens: createTokenWebhook({ client, clock, logger }, c.authenticationWebhookCacheTtlMs) };
}

/**
 * Reads --console-token-file, creating it when missing; logs `console token: <path>` and, only when it was just
 * created, the token itself (once: later starts show the path only). Throws when the file is unusable.
 */
export function loadConsoleToken(c: Pick<AgentConfig, 'consoleTokenFile' | 'rootDir'>, logger: Logger): NonNullable<GuardOptions['consoleToken']> {
  const path = c.consoleTokenFile || join(c.rootDir, CONSOLE_TOKEN_FILE_NAME);
  const t = ensureConsoleToken(path);
  logger.info(`console token: ${path}`);
  if (t.created) logger.info('new console token (shown once; sign in with it, or read it from the file)', { token: t.token });
  if (t.groupOrWorldReadable) logger.warn('console token file is readable by group or others: chmod 600 it', { path });
  return { matches: consoleTokenMatcher(t.token), user: CONSOLE_USER };
}

export function httpLimits(c: AgentConfig): HttpLimits {
  return { maxConnections: c.httpMaxConnections, headerTimeoutMs: c.httpHeaderTimeoutMs, idleTimeoutMs: c.httpIdleTimeoutMs };
}
