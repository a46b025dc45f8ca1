export * from './permissions';
export * from './errors';
export * from './money';
export * from './statuses';
export * from './auth';
export * from './common';
export * from './merchants';
export * from './terminals';
