# Spack recipe for oshm, kept in this project's tree until it is proposed to
# Spack's package repository. Use it as a repository of its own:
#   spack repo add <oshm source>/contrib/spack
#   spack install oshm            (docs/install.md, "Spack": offline, from a source mirror)
# Written for Spack 1.x (build systems in the builtin repository) and loads in
# 0.2x as well.

from spack.package import *

try:  # Spack 1.x: the build systems live in the builtin package repository
    from spack_repo.builtin.build_systems.cmake import CMakePackage
except ImportError:  # Spack 0.x: spack.package gives CMakePackage
    pass


def _compilers_are_dependencies():
    """Spack 1.x models compilers as dependencies on the c and cxx virtuals;
    0.x (up to 0.23) attaches a compiler to every spec instead."""
    try:
        import spack

        return tuple(spack.spack_version_info[:2]) >= (1, 0)
    except (ImportError, AttributeError, TypeError):
        return False


class Oshm(CMakePackage):
    """oshm: an OpenSHMEM 1.6 implementation in C11. PEs on one node reach
    each other's symmetric memory through shared mappings, PEs on other nodes
    through UCX or libfabric; oshcc/oshc++ compile, oshrun launches (or a
    PMIx launcher: Slurm's srun, Open MPI's mpirun). Device kernels calling
    OpenSHMEM run on a simulated device on any CPU."""

    homepage = "https://oshm.invalid/"
    # No release is published yet: versions come from a source mirror made
    # from the tree (contrib/spack/check_spack.sh makes one), fetched with
    # --no-checksum. The .invalid address is never reached.
    url = "https://oshm.invalid/releases/oshm-0.1.0.tar.gz"

    version("0.1.0")

    variant("ucx", default=True, description="Reach PEs on other nodes through UCX")
    variant(
        "ofi", default=True, description="libfabric backend (SHMEM_TRANSPORT=ofi, opened at run time)"
    )
    variant(
        "pmix",
        default=True,
        description="Start from a PMIx launcher (srun --mpi=pmix, Open MPI's mpirun)",
    )
    variant(
        "device",
        default=True,
        description="The simulated device: device kernels calling OpenSHMEM (shmemx_launch)",
    )

    if _compilers_are_dependencies():
        depends_on("c", type="build")
        depends_on("cxx", type="build")
    depends_on("cmake@3.20:", type="build")
    depends_on("pkgconfig", type="build")

    # As Open MPI's recipe: hwloc for binding (oshrun --bind-to), the network
    # libraries each behind its variant; libfabric's headers at build time.
    depends_on("hwloc@2:")
    # The bootstrap proves its connections with HMAC-SHA-256 from libsodium.
    depends_on("libsodium")
    depends_on("ucx", when="+ucx")
    depends_on("pmix", when="+pmix")
    depends_on("libfabric", when="+ofi")

    def cmake_args(self):
        return [
            self.define_from_variant("OSHM_WITH_UCX", "ucx"),
            self.define_from_variant("OSHM_WITH_OFI", "ofi"),
            self.define_from_variant("OSHM_WITH_PMIX", "pmix"),
            self.define_from_variant("OSHM_WITH_DEVICE", "device"),
            # Other compilers warn differently: the project's -Werror is for its own CI.
            self.define("OSHM_WERROR", False),
            self.define("BUILD_TESTING", self.run_tests),
        ]

    def setup_dependent_build_environment(self, env, dependent_spec):
        # A package built with oshcc inside Spack compiles through Spack's
        # compiler wrappers, as SOS's recipe does with SHMEM_CC.
        env.set("OSHCC_CC", spack_cc)
        env.set("OSHCXX_CXX", spack_cxx)
        env.set("OSHCC", join_path(self.prefix.bin, "oshcc"))

    def setup_run_environment(self, env):
        # shmem4py and other tools look for the compiler wrapper in OSHCC.
        env.set("OSHCC", join_path(self.prefix.bin, "oshcc"))
