export { registerDetailsAction as registerActions } from './details';
