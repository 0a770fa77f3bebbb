/**
 * certificates.status: the node's client and serving certificates as the certificate managers see them
 * (certificate/managers.ts): subject, issuer, validity, next rotation, last error. Without a manager (standalone,
 * or a fixed certificate) the pair in use is described and `source` says where it comes from.
 */
import type { CertificatesStatus } from '../certificate/managers.ts';
import { publicProcedure, router } from './trpc.ts';

export const certificatesRouter = router({
  status: publicProcedure.query(({ ctx }): CertificatesStatus => ctx.certificates?.() ?? { serving: { source: 'generated' } }),
});
