import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../lib/context';
import { tickCallbacks } from '../modules/callbacks/service';
import { tickExpiry } from '../modules/engine/expiry';
import { tickSandbox } from '../modules/sandbox/service';
import { startLoop, type Loop } from './loop';

/** The payment engine's background loops: merchant callbacks, the sandbox provider, form expiry. */
export function engineLoops(ctx: AppContext, log: FastifyBaseLogger): Loop[] {
  return [
    startLoop('callbacks', 1000, log, async () => (await tickCallbacks(ctx, { limit: 50 })) === 50),
    startLoop('sandbox', 500, log, async () => (await tickSandbox(ctx, { limit: 100 })) === 100),
    startLoop('expiry', 5000, log, async () => (await tickExpiry(ctx, { limit: 200 })) === 200),
  ];
}
