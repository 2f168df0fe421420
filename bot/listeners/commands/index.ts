export { registerDriveCommand as registerCommands } from './drive';
