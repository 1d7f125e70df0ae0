import { Injectable } from '@nestjs/common';

/**
 * A module that keeps data of an app outside the tables that cascade with it, or whose erasure
 * must do more than delete rows (forget personal data in logs, tell receivers), registers here.
 * `eraseApp` runs inside the transaction that deletes the app, before the app row goes.
 */
export interface AppErasureParticipant {
  eraseApp(accountId: string, appId: string): Promise<void>;
}

/** The participants of an app's deletion. Apps cannot import the modules that hang data on apps (they import apps), so those register themselves. */
@Injectable()
export class AppErasure {
  private readonly participants: AppErasureParticipant[] = [];

  register(participant: AppErasureParticipant): void {
    this.participants.push(participant);
  }

  async run(accountId: string, appId: string): Promise<void> {
    for (const participant of this.participants) await participant.eraseApp(accountId, appId);
  }
}
