/** Names refused when read (formats/fields.ts); launch/server-env.ts says how the rest reach the server. */

/** Loader, libc and container-engine variables: no honest shared list sets them, and each escapes containment. */
const LOADER_AND_ENGINE =
  /^(?:LD_\w*|DYLD_\w*|GCONV_PATH|GETCONF_DIR|GLIBC_TUNABLES|HOSTALIASES|LOCALDOMAIN|LOCPATH|MALLOC_\w*|NIS_PATH|NLSPATH|RESOLV_HOST_CONF|RES_OPTIONS|DOCKER_\w*|CONTAINER_\w*|CONTAINERS_\w*|PODMAN_\w*|BUILDAH_\w*)$/i;

export function refusedEnvName(name: string): string | undefined {
  if (!LOADER_AND_ENGINE.test(name)) return undefined;
  return `${name.slice(0, 100)} steers the dynamic loader or the container engine of the programs idemscan starts, and is never passed to a server`;
}
