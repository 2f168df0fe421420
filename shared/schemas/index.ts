export * from './resources';
export { Envelope } from './envelope';
export { model } from './model';
