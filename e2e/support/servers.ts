import path from 'node:path';
import { test } from '@playwright/test';

/*
 * The browser tests run in parallel workers, each against a server of its own (playwright.config.ts starts them):
 * worker i (its parallelIndex) talks to the server on port E2E_PORT + i, whose demo data lives in its own folder. So
 * no test sees what another worker's tests did, and a file's tests keep running one after another on one server.
 */

/** The first server's port; E2E_PORT moves them all, so that two checkouts can run side by side. */
export const BASE_PORT = Number(process.env.E2E_PORT) || 3100;

/** Browser workers, and so servers: E2E_WORKERS, else two (this machine's cores). */
export const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS) || 2);

export const portOf = (worker: number) => BASE_PORT + worker;

/** The data folder of a worker's server (the seed writes the demo merchant's keys there). */
export const dataDirOf = (worker: number) => path.resolve(import.meta.dirname, `../../.tmp/e2e-data-${portOf(worker)}`);

/** The worker the running test is in. */
export const currentWorker = () => test.info().parallelIndex;
