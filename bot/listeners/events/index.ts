export { registerAppMention as registerEvents } from './app-mention';
