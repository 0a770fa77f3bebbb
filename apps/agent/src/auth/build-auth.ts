/** The 10250 auth filter's pieces from the configuration: AlwaysAllow or the SAR webhook; the TokenReview webhook. */
import type { ApiClient } from '@nodelet/core/apiclient/types.ts';
import type { Clock } from '@nodelet/core/util/clock.ts';
import type { Logger } from '@nodelet/core/util/logger.ts';
import type { AgentConfig } from '../config/types.ts';
import { createAuthorizer, type Authorizer, type BearerAuthenticator } from '../servers/auth.ts';
import { createTokenWebhook, createWebhookAuthorizer } from './webhook.ts';

export function buildAuth(c: AgentConfig, client: ApiClient | undefined, clock: Clock, logger: Logger): { authorizer: Authorizer; tokens?: BearerAuthenticator } {
  const authorizer =
    c.authorizationMode === 'Webhook' && client
      ? createWebhookAuthorizer({ client, clock, logger }, { allowedMs: c.authorizationWebhookCacheAuthorizedTtlMs, deniedMs: c.authorizationWebhookCacheUnauthorizedTtlMs })
      : createAuthorizer(c.authorizationMode);
  if (!c.authenticationTokenWebhook || !client) return { authorizer };
  return { authorizer, tokens: createTokenWebhook({ client, clock, logger }, c.authenticationWebhookCacheTtlMs) };
}
