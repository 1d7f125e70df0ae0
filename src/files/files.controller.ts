import { Body, Controller, Param, Put, Req, Res } from '@nestjs/common';
import { Readable } from 'node:stream';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformRouteConfig } from '../app.setup.js';
import type { Principal } from '../common/request-context/principal.js';
import type { GuardedBeforeBody } from '../common/http/route-config.js';
import { RateLimitBucketOf } from '../rate-limit/rate-limit.decorators.js';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import { RequestError, RequestErrorCode } from '../common/errors/request-errors.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { FileDto } from './dto/file.dto.js';
import { FilesService } from './files.service.js';

const UPLOAD_GUARDS = { scopes: ['deployments:write'], rateLimit: 'uploads' } satisfies GuardedBeforeBody;
/** Raw bytes, up to MAX_FILE_BYTES, on this route only; the guards run before they are read. */
const UPLOAD: PlatformRouteConfig = { acceptsBytes: true, bodyLimit: (config) => config.MAX_FILE_BYTES, guardsBeforeBody: UPLOAD_GUARDS };

@ApiTags('files')
@Controller('files')
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @Put(':sha256')
  @RouteConfig(UPLOAD)
  @Scopes(...UPLOAD_GUARDS.scopes)
  @RateLimitBucketOf(UPLOAD_GUARDS.rateLimit)
  @ApiOperation({
    summary: 'Upload a file for deploys',
    description:
      'The body is the raw content (`Content-Type: application/octet-stream`, at most `MAX_FILE_BYTES`, default 25 MiB); ' +
      'the path names its SHA-256 in lowercase hex, which must be the digest of the body (else 400 `digest_mismatch`, nothing stored). ' +
      'Files are kept per account: a deploy references them by hash in `files`. 201 when stored, 200 when the account had it already ' +
      '(nothing rewritten; its 24 h restart). A file no deployment references is deleted 24 h after its last upload. ' +
      'The credential, rate limit and scope are checked before the body is read (a refusal closes the connection); uploads count in ' +
      'their own rate-limit bucket, `RATE_LIMIT_UPLOADS_MAX` per 60 s per account, not in the general one. ' +
      'A new file counts in the `storage.bytes` meter while the account keeps it; past the plan’s hard storage quota: 402 `quota_exceeded`, nothing stored.',
  })
  @ApiParam({
    name: 'sha256',
    description: 'SHA-256 of the body, 64 lowercase hex characters',
    example: '3f9a1c2be0b8d5e4a1f7c6d9b2e3a4f5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1',
  })
  @ApiConsumes('application/octet-stream')
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiCreatedResponse({ type: FileDto, description: 'Stored' })
  @ApiOkResponse({ type: FileDto, description: 'The account had it already' })
  @ApiErrors(400, 402, 413, 415)
  async upload(
    @CurrentPrincipal() principal: Principal,
    @Param('sha256') sha256: string,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<FileDto> {
    // No body is an empty file; JSON (which the parser would have read) is not a file.
    if (body !== undefined && !(body instanceof Readable))
      throw new RequestError(RequestErrorCode.UnsupportedMediaType, 'Content-Type must be application/octet-stream');
    const length = request.headers['content-length'];
    const declared = body === undefined ? 0 : length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
    const { created, ...file } = await this.files.upload(principal.accountId, sha256, body ?? Readable.from([]), declared);
    void reply.status(created ? 201 : 200);
    return file;
  }
}
