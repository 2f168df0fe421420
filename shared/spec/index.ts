export * from './endpoints';
export * from './errors';
export * from './levels';
export * from './limits';
