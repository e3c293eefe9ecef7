// Temporary, on the smp-loop branch only (deleted when the task-tree runtime is merged): a job with `tasks:`
// fails clearly until make_task_runtime has its definition (src/userlevel/task_runtime.cpp).
#include <stdexcept>

#include "userlevel/job_runtime.hpp"

namespace cosched::userlevel {

std::unique_ptr<JobRuntime> make_task_runtime(const config::SmpTasks&, int) {
  throw std::logic_error("task runtime: not merged yet");
}

}  // namespace cosched::userlevel
