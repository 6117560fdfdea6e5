/**
 * Where the music domain announces what happened to a person (a purchase completed, a tip
 * received). The live-updates feature implements it; by default nothing is pushed.
 */

export interface UserEvent {
  type: string;
  [field: string]: unknown;
}

export interface EventPublisher {
  /** Best effort: a failure is the publisher's to log, never the caller's to undo. */
  publish(userId: string, event: UserEvent): Promise<void>;
}

export const noEventPublisher: EventPublisher = { publish: () => Promise.resolve() };
