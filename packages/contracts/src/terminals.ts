import { z } from 'zod';
import { FLOW_TYPES } from './statuses';

export const terminalListItem = z.object({
  id: z.uuid(),
  name: z.string(),
  paymentFlow: z.enum(FLOW_TYPES),
  currency: z.object({ code: z.string() }),
  isTest: z.boolean(),
  enabled: z.boolean(),
});
export type TerminalListItem = z.infer<typeof terminalListItem>;
export const terminalListResponse = z.object({ data: z.array(terminalListItem) });
