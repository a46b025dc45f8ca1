import { z } from 'zod';
import { parseDdMmYyyy } from './dates';

/** A dd/MM/yyyy query value; anything else (including 31/02/2026) is refused. */
export const ddMmYyyySchema = z
  .string()
  .refine((s) => parseDdMmYyyy(s) !== null, { message: 'Expected a valid date as dd/MM/yyyy' });
