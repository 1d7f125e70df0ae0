import { ApiProperty } from '@nestjs/swagger';

/** The body of every error response. `code` always equals the HTTP status. */
export class ErrorBody {
  @ApiProperty({ example: true, enum: [true] })
  error: true;

  @ApiProperty({ example: 400, description: 'Equals the HTTP status' })
  code: number;

  @ApiProperty({ example: 'appId must be a string' })
  message: string;

  @ApiProperty({
    required: false,
    example: 'app_not_found',
    description: 'Why, as a stable machine-readable string (`app_not_found`, `idempotency_key_in_flight`…), for the errors the service raises itself',
  })
  reason?: string;

  @ApiProperty({ required: false, example: '5f0c2f0e-8c1e-4a39-9f0c-2f0e8c1e4a39', description: 'The x-request-id of the failed request' })
  requestId?: string;

  @ApiProperty({
    required: false,
    type: [String],
    description: 'The problems found, for validation errors: the first 20 (the message then says how many more there were)',
  })
  details?: string[];
}
