import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PlatformError } from '../common/errors/platform-error.js';
import { bodyParserProblem } from '../common/http/framework-errors.js';
import { clientInputProblem, withoutQueryParameters } from '../database/postgres-errors.js';
import { PortalFormExpired, PortalRedirect, PortalRequest, sendPortal } from './portal-http.js';
import { chrome } from './portal-page.js';
import { renderPortal } from './portal-pages.js';
import { PortalRoleRefused } from './portal-role.guard.js';

/** The page's title for each status a portal action can be refused with. */
const TITLES: Record<number, string> = {
  400: 'Not accepted',
  401: 'Not signed in',
  402: 'Over your plan',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  413: 'Too large',
  415: 'Not accepted',
  422: 'Not accepted',
  429: 'Too many requests',
  502: 'The AI provider failed',
  503: 'Not available',
  504: 'The AI provider took too long',
};

/**
 * Errors of the portal's routes become pages in the portal's layout, never the API's JSON envelope: a
 * redirect (303), the form-expired page (403), the API's own refusal (its status and message: a 404, a
 * quota's 402, a rate limit's 429 with Retry-After), and for anything unexpected a 500 page whose
 * details go only to the log.
 */
@Catch()
export class PortalExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Portal');

  async catch(thrown: unknown, host: ArgumentsHost): Promise<void> {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<PortalRequest>();
    if (thrown instanceof PortalRedirect) return sendPortal(reply, { redirect: thrown.location });
    const signed = request.portalSigned;
    const page = (status: number, title: string, text: string, back = '/portal/') =>
      renderPortal('notice', { title, text, back, nav: signed ? 'none' : undefined, ...(signed ? chrome(signed) : {}) }, status);
    if (thrown instanceof PortalFormExpired) {
      return sendPortal(
        reply,
        page(403, 'Form expired', 'This form was not sent from this portal, or it expired. Nothing was changed; please try again.', thrown.back),
      );
    }
    if (thrown instanceof PortalRoleRefused) return sendPortal(reply, page(403, 'Not allowed for your role', thrown.text));
    const exception = bodyParserProblem(thrown, request) ?? thrown;
    const inputProblem = clientInputProblem(exception);
    if (inputProblem) return sendPortal(reply, page(400, TITLES[400], inputProblem));
    if (exception instanceof PlatformError && exception.status < 500) {
      const answer = page(exception.status, TITLES[exception.status] ?? 'Not accepted', exception.message);
      return sendPortal(reply, { ...answer, headers: exception.extras.headers });
    }
    if (exception instanceof PlatformError && TITLES[exception.status]) {
      if (exception.status !== 503) this.logger.warn({ err: exception, requestId: request.id }, exception.message);
      return sendPortal(reply, { ...page(exception.status, TITLES[exception.status], exception.message), headers: exception.extras.headers });
    }
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      const status = exception.getStatus();
      return sendPortal(reply, page(status, TITLES[status] ?? 'Not accepted', status === 404 ? 'There is no page here.' : exception.message));
    }
    this.logger.error({ err: withoutQueryParameters(exception), requestId: request.id }, 'A portal page failed');
    return sendPortal(
      reply,
      page(
        500,
        'Something went wrong',
        `This page failed on our side; nothing more is known here. Try again, or quote request ${request.id} to your operator.`,
      ),
    );
  }
}
