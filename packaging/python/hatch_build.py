"""Marks the wheel as what it is: not pure Python, one platform. The tag comes from
HEALTHETL_WHEEL_TAG (scripts/dist-wheel.sh reads it off the binary: manylinux_2_36_x86_64 for
a binary whose newest glibc symbol is GLIBC_2.36), so the wheel installs only where it runs."""
import os

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version, build_data):
        platform = os.environ.get("HEALTHETL_WHEEL_TAG")
        if not platform:
            raise RuntimeError("HEALTHETL_WHEEL_TAG is not set: build the wheel with scripts/dist-wheel.sh (make dist)")
        build_data["pure_python"] = False
        build_data["tag"] = f"py3-none-{platform}"
