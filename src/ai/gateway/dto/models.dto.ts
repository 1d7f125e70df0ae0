import { ApiProperty } from '@nestjs/swagger';

export class ModelDto {
  /** What clients send as `model`. @example fast */
  id: string;

  @ApiProperty({ enum: ['model'], example: 'model' })
  object: 'model';

  /** Unix seconds: when the operator last changed the offer (AI_PROVIDERS_FILE's time; 0 when unknown). @example 1795300000 */
  created: number;

  /** Who serves it: the operator's `ownedBy`, else its first target's provider. @example openai */
  owned_by: string;
}

/** OpenAI's model list. */
export class ModelListDto {
  @ApiProperty({ enum: ['list'], example: 'list' })
  object: 'list';

  @ApiProperty({ type: [ModelDto] })
  data: ModelDto[];
}
