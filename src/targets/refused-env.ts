/** A target file's environment names idemscan refuses when it reads them (formats/fields.ts); launch/server-env.ts says how the rest reach the server. */

/**
 * Variables a target may not set: the dynamic loader's and libc's (glibc drops exactly these for
 * set-uid programs), macOS's loader, and a container engine's (which daemon, which config). On no
 * honest server do they belong in a shared list, and each would run code outside the containment
 * if it reached a wrapper.
 */
const LOADER_AND_ENGINE =
  /^(?:LD_\w*|DYLD_\w*|GCONV_PATH|GETCONF_DIR|GLIBC_TUNABLES|HOSTALIASES|LOCALDOMAIN|LOCPATH|MALLOC_\w*|NIS_PATH|NLSPATH|RESOLV_HOST_CONF|RES_OPTIONS|DOCKER_\w*|CONTAINER_\w*|CONTAINERS_\w*|PODMAN_\w*|BUILDAH_\w*)$/i;

/** Why a target may not set this variable, or undefined. */
export function refusedEnvName(name: string): string | undefined {
  if (!LOADER_AND_ENGINE.test(name)) return undefined;
  return `${name.slice(0, 100)} steers the dynamic loader or the container engine of the programs idemscan starts, and is never passed to a server`;
}
