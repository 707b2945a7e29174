/** The script's only console output: namespaced, and silent unless the embed asked for `debug`. */
export interface WidgetLogger {
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
}

export const LOG_PREFIX = "[modelhub-widget]";

export function createLogger(enabled: boolean): WidgetLogger {
  if (!enabled) return { info() {}, warn() {} };
  return {
    info: (message, ...details) => console.info(`${LOG_PREFIX} ${message}`, ...details),
    warn: (message, ...details) => console.warn(`${LOG_PREFIX} ${message}`, ...details),
  };
}
