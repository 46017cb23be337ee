#!/usr/bin/env bash
# Creates Waygate's tables, queues and media bucket in LocalStack once it is ready: the shapes of serverless.yml (and
# of shared/adapters/dynamodb/dynamodb-tables.ts, shared/adapters/sqs/sqs-queues.ts and scripts/s3-emulator.mjs,
# which the tests and `npm run offline` use): two PAY_PER_REQUEST tables with pk/sk and the sparse GSIs gsi1/gsi2,
# TTL on `ttl` in the data table; a FIFO command queue and a standard webhook queue, each with a dead-letter queue of
# its own type; a bucket for message media (S3_BUCKET, default `<QUEUE_PREFIX>-media`). Safe to run again: what
# exists is left as it is.
set -euo pipefail

TABLE_PREFIX="${TABLE_PREFIX:-waygate-local-}"
QUEUE_PREFIX="${QUEUE_PREFIX:-waygate-local}"
VISIBILITY="${COMMAND_VISIBILITY_TIMEOUT_S:-60}"
MAX_RECEIVES="${COMMAND_MAX_RECEIVES:-5}"
MEDIA_BUCKET="${S3_BUCKET:-${QUEUE_PREFIX}-media}"

create_table() {
  local name="$1"
  if awslocal dynamodb describe-table --table-name "$name" >/dev/null 2>&1; then
    echo "waygate: table $name exists"
    return
  fi
  awslocal dynamodb create-table \
    --table-name "$name" \
    --billing-mode PAY_PER_REQUEST \
    --attribute-definitions \
      AttributeName=pk,AttributeType=S AttributeName=sk,AttributeType=S \
      AttributeName=gsi1pk,AttributeType=S AttributeName=gsi1sk,AttributeType=S \
      AttributeName=gsi2pk,AttributeType=S AttributeName=gsi2sk,AttributeType=S \
    --key-schema AttributeName=pk,KeyType=HASH AttributeName=sk,KeyType=RANGE \
    --global-secondary-indexes '[
      {"IndexName":"gsi1","KeySchema":[{"AttributeName":"gsi1pk","KeyType":"HASH"},{"AttributeName":"gsi1sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}},
      {"IndexName":"gsi2","KeySchema":[{"AttributeName":"gsi2pk","KeyType":"HASH"},{"AttributeName":"gsi2sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}
    ]' >/dev/null
  awslocal dynamodb wait table-exists --table-name "$name"
  echo "waygate: table $name created"
}

queue_arn() {
  awslocal sqs get-queue-attributes --queue-url "$1" --attribute-names QueueArn --query Attributes.QueueArn --output text
}

# A queue and its dead-letter queue (`-dlq`, before `.fifo` for FIFO queues), redrive after MAX_RECEIVES receives.
create_queue_pair() {
  local base="$1" fifo="$2" suffix="" type_attributes=""
  if [ "$fifo" = true ]; then
    suffix=".fifo"
    # Explicit deduplication ids only: content-based deduplication would drop two equal commands.
    type_attributes='"FifoQueue":"true","ContentBasedDeduplication":"false",'
  fi
  local dlq_url dlq_arn redrive
  dlq_url=$(awslocal sqs create-queue --queue-name "${base}-dlq${suffix}" \
    --attributes "{${type_attributes}\"VisibilityTimeout\":\"${VISIBILITY}\",\"MessageRetentionPeriod\":\"1209600\"}" \
    --query QueueUrl --output text)
  dlq_arn=$(queue_arn "$dlq_url")
  redrive="{\\\"deadLetterTargetArn\\\":\\\"${dlq_arn}\\\",\\\"maxReceiveCount\\\":${MAX_RECEIVES}}"
  awslocal sqs create-queue --queue-name "${base}${suffix}" \
    --attributes "{${type_attributes}\"VisibilityTimeout\":\"${VISIBILITY}\",\"RedrivePolicy\":\"${redrive}\"}" \
    --query QueueUrl --output text
}

create_bucket() {
  local name="$1"
  if awslocal s3api head-bucket --bucket "$name" >/dev/null 2>&1; then
    echo "waygate: bucket $name exists"
    return
  fi
  awslocal s3api create-bucket --bucket "$name" >/dev/null
  echo "waygate: bucket $name created"
}

create_table "${TABLE_PREFIX}data"
create_table "${TABLE_PREFIX}main"
awslocal dynamodb update-time-to-live --table-name "${TABLE_PREFIX}data" \
  --time-to-live-specification Enabled=true,AttributeName=ttl >/dev/null 2>&1 || true

echo "waygate: command queue $(create_queue_pair "${QUEUE_PREFIX}-commands" true)"
echo "waygate: webhook queue $(create_queue_pair "${QUEUE_PREFIX}-events" false)"
create_bucket "$MEDIA_BUCKET"
