from setuptools import Extension, setup

# Compiled kernels (csp/kernel.py): optional, so an install never fails for want of a C
# compiler; each one has a pure-Python fallback that gives identical results.
EXTENSIONS = [
    Extension("csp._enum_kernel", ["csp/_enum_kernel.c"], depends=["csp/_packed.h"], optional=True, extra_compile_args=["-O2"]),
    Extension("techniques._fish_kernel", ["techniques/_fish_kernel.c"], depends=["techniques/_u128.h"], optional=True, extra_compile_args=["-O2"]),
    Extension("csp._engine_kernel", ["csp/_engine_kernel.c"], optional=True, extra_compile_args=["-O2"]),
    Extension("csp._auto_kernel", ["csp/_auto_kernel.c"], depends=["csp/_packed.h"], optional=True, extra_compile_args=["-O2"]),
    Extension("csp.constraints._linear_kernel", ["csp/constraints/_linear_kernel.c"], depends=["csp/_packed.h"], optional=True, extra_compile_args=["-O2"]),
    Extension("variants._band_kernel", ["variants/_band_kernel.c"], optional=True, extra_compile_args=["-O2"]),
    Extension("variants._sky_kernel", ["variants/_sky_kernel.c"], optional=True, extra_compile_args=["-O2"]),
    Extension("techniques._se_kernel", ["techniques/_se_kernel.c"], optional=True, extra_compile_args=["-O2"]),
    Extension("techniques._forcing_kernel", ["techniques/_forcing_kernel.c"], depends=["techniques/_u128.h"], optional=True, extra_compile_args=["-O2"]),
    Extension("techniques._als_kernel", ["techniques/_als_kernel.c"], depends=["techniques/_u128.h"], optional=True, extra_compile_args=["-O2"]),
    Extension("techniques._chain_kernel", ["techniques/_chain_kernel.c"], depends=["techniques/_u128.h"], optional=True, extra_compile_args=["-O2"]),
    Extension("techniques._singles_kernel", ["techniques/_singles_kernel.c"], optional=True, extra_compile_args=["-O2"]),
]

setup(ext_modules=EXTENSIONS)
