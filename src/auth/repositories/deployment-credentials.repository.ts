import { Injectable } from '@nestjs/common';
import { Transactions } from '../../database/transactions.js';

/** A deployment whose PLATFORM_TOKEN still works, with whose it is. */
export interface ServingDeployment {
  accountId: string;
  appId: string;
}

/** What verifying a deployment's PLATFORM_TOKEN reads: the deployment's standing in its app, in one query. */
@Injectable()
export class DeploymentCredentialsRepository {
  constructor(private readonly db: Transactions) {}

  /**
   * The deployment, if it is still the newest of its environment, or published (the app's published deployment, or
   * a variant of its running split test, which the public address serves too); null otherwise or when it is gone.
   */
  async findServing(deploymentId: string): Promise<ServingDeployment | null> {
    const rows = await this.db.query<{ account_id: string; app_id: string }>(
      `SELECT d.account_id, d.app_id
         FROM deployments d JOIN apps a ON a.id = d.app_id
        WHERE d.id = $1
          AND (d.id = (SELECT n.id FROM deployments n WHERE n.app_id = d.app_id AND n.env = d.env ORDER BY n.created_at DESC, n.id DESC LIMIT 1)
               OR (a.publish_state = 'published' AND a.published_deployment_id = d.id)
               OR EXISTS (SELECT 1 FROM app_splits s
                           WHERE s.app_id = d.app_id AND s.ended_at IS NULL
                             AND s.variants @> jsonb_build_array(jsonb_build_object('deploymentId', d.id::text))))`,
      [deploymentId],
    );
    return rows[0] ? { accountId: rows[0].account_id, appId: rows[0].app_id } : null;
  }
}
