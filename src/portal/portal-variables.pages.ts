import { Injectable } from '@nestjs/common';
import { AppsService } from '../apps/apps.service.js';
import { PlatformError } from '../common/errors/platform-error.js';
import { DeploymentsService } from '../deployments/deployments.service.js';
import { SetEnvVarDto } from '../functions/dto/env-var.dto.js';
import { EnvVarsService } from '../functions/env-vars.service.js';
import { validateForm } from './portal-forms.js';
import { chrome, Form, ignoreNotFound, PortalAnswer, portalActor, Signed, text } from './portal-page.js';
import { PortalHtml, renderPortal } from './portal-pages.js';

const DONE: Record<string, string> = {
  set: 'Variable saved: deployments from now on take it (redeploy to use it).',
  deleted: 'Variable deleted: deployments from now on go without it.',
};

/** What the page says besides the variables: the last action's outcome, or why the form was refused (with what was typed, a secret's value not). */
interface Notes {
  done?: string;
  error?: string;
  input?: Form;
  status?: number;
}

/** /portal/apps/:appId/variables: the environments' variables and secrets for the app's server code, through the API's service and DTO. */
@Injectable()
export class PortalVariablesPages {
  constructor(
    private readonly apps: AppsService,
    private readonly deployments: DeploymentsService,
    private readonly vars: EnvVarsService,
  ) {}

  async page(signed: Signed, appId: string, notes: Notes = {}): Promise<PortalHtml> {
    const app = await this.apps.get(signed.accountId, appId);
    const deployed = (await this.deployments.listForApp(signed.accountId, appId, { limit: 100 })).data.map((d) => d.env);
    const envNames = [...new Set(['production', 'staging', ...deployed])];
    const environments = await Promise.all(envNames.map(async (env) => ({ env, vars: await this.vars.list(signed.accountId, appId, env) })));
    return renderPortal(
      'variables',
      { ...chrome(signed), app, environments, envNames, message: notes.done && DONE[notes.done], error: notes.error, input: notes.input ?? {} },
      notes.status ?? (notes.error ? 400 : 200),
    );
  }

  /** Through PUT …/vars/:name's DTO and service (its name and value rules, its audit entry); refused: the page again, saying why. */
  async set(signed: Signed, appId: string, form: Form): Promise<PortalAnswer> {
    const secret = form.secret === 'on';
    // A refused secret's value is not sent back into the page.
    const kept = { ...form, value: secret ? '' : form.value };
    const checked = await validateForm(SetEnvVarDto, { value: typeof form.value === 'string' ? form.value : '', secret });
    if (!checked.ok) return this.page(signed, appId, { error: Object.values(checked.errors).join('; '), input: kept });
    try {
      await this.vars.set(signed.accountId, portalActor(signed), appId, text(form, 'env'), text(form, 'name'), checked.value);
    } catch (err) {
      if (!(err instanceof PlatformError) || err.status === 404) throw err;
      return this.page(signed, appId, { error: err.message, input: kept, status: err.status });
    }
    return { redirect: `/portal/apps/${appId}/variables?done=set` };
  }

  /** One already gone: nothing to do. */
  async remove(signed: Signed, appId: string, form: Form): Promise<PortalAnswer> {
    await this.vars.remove(signed.accountId, portalActor(signed), appId, text(form, 'env'), text(form, 'name')).catch(ignoreNotFound);
    return { redirect: `/portal/apps/${appId}/variables?done=deleted` };
  }
}
