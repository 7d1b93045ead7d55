# cuda-libs.sh: sourced by the H100 run scripts (perf/run-conv-h100.sh, perf/run-ops-h100.sh) to put
# cuDNN 9, cuBLAS(Lt), NVRTC and the CUDA 13 runtime on LD_LIBRARY_PATH: /usr/local/cuda first, then
# PyTorch's nvidia.* pip packages (nvidia/cudnn/lib, nvidia/cu13/lib, ...). cuDNN loads its
# sublibraries (libcudnn_cnn, _ops, _graph, _engines_*.so.9) from its own folder.
#   cuda_libs_export   exports LD_LIBRARY_PATH, prints what it found, sets cudnn_dir ("" if none);
#                      returns 1 when libcudnn.so.9 was not found.
libpath=""
add_dir_of() {  # add_dir_of LIBNAME DIR...: adds the folder of the first LIBNAME under DIR... (4 deep)
  local name=$1 d f
  shift
  for d in "$@"; do
    [ -d "$d" ] || continue
    f=$(find "$d/" -maxdepth 4 -name "$name" 2>/dev/null | head -n 1)
    if [ -n "$f" ]; then
      case ":$libpath:" in
        *":$(dirname "$f"):"*) ;;
        *) libpath="$libpath:$(dirname "$f")" ;;
      esac
      echo "$name: $f"
      return 0
    fi
  done
  echo "warning: $name not found" >&2
  return 1
}
cuda_libs_export() {
  local found=0 lib
  cudnn_dir=""
  mapfile -t pydirs < <(python3 -c "import nvidia; print('\n'.join(nvidia.__path__))" 2>/dev/null || true)
  sysdirs=(/usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib /usr/lib/x86_64-linux-gnu)
  if add_dir_of libcudnn.so.9 "${sysdirs[@]}" "${pydirs[@]+"${pydirs[@]}"}"; then
    cudnn_dir=$(echo "$libpath" | awk -F: '{print $NF}')
    echo "cuDNN sublibraries in $cudnn_dir: $(cd "$cudnn_dir" && echo libcudnn_*.so.9)"
    found=1
  fi
  for lib in libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libnvrtc.so.13; do
    add_dir_of "$lib" "${sysdirs[@]}" "${pydirs[@]+"${pydirs[@]}"}" || true
  done
  export LD_LIBRARY_PATH="${libpath#:}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
  [ $found = 1 ]
}
