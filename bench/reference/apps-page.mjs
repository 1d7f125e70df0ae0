// The apps list of the bare references (apps-server.mjs, nest-floor.mjs): the service's SQL and JSON
// for GET /v1/apps, written once so both answer exactly the same work.
//   env: SERVICE_URL (base of public addresses)

const toApp = (r) => {
  const published = r.publish_state === 'published';
  return {
    appId: r.id,
    name: r.name,
    description: r.description,
    slug: r.slug,
    visibility: r.visibility,
    publishState: r.publish_state,
    publishedDeploymentId: published ? r.published_deployment_id : null,
    publishedAt: published ? r.published_at.toISOString() : null,
    publicUrl: published ? `${process.env.SERVICE_URL}/p/${r.slug}/` : null,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
};

/** The first page of the account's apps, as the service answers it. */
export async function appsPage(pool, accountId, limit) {
  const { rows } = await pool.query(
    `SELECT id, name, description, slug, visibility, publish_state, published_deployment_id, published_at, created_at, updated_at
       FROM apps WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [accountId, limit + 1],
  );
  const items = rows.slice(0, limit).map(toApp);
  return { data: items, nextCursor: rows.length > limit ? Buffer.from(items.at(-1).appId).toString('base64url') : null };
}
