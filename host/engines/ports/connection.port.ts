/**
 * The connection port (core: every engine has it): one connection attempt's lifecycle. Progress (QR, ready,
 * disconnected …) arrives as engine events, not as return values.
 */
export interface EngineConnection {
  /** Begins connecting; resolves once the attempt is under way. */
  start(): Promise<void>;
  /** Closes the connection, keeping credentials. */
  stop(): Promise<void>;
  /** Unlinks the device on the network and wipes its credentials; resolves once the network confirmed it. */
  logout(): Promise<void>;
  /** Tears the client down at once without waiting for the network (stuck engines). */
  forceDestroy(): Promise<void>;
}
