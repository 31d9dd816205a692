/** The part of pino the background workers use; tests pass nothing and get silence. */
export interface WorkerLogger {
  info(obj: object, msg: string): void
  warn(obj: object, msg: string): void
  error(obj: object, msg: string): void
}

export const quietLogger: WorkerLogger = { info() {}, warn() {}, error() {} }
